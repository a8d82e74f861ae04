#include <doctest/doctest.h>

#include "journal/redact.h"

namespace aj {

TEST_CASE("credential-looking parts of an argument are redacted") {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      // API tokens with a known prefix: the whole token goes.
      {"sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdef", "[REDACTED]"},
      {"sk-proj-abcDEF1234567890ghijKLMN", "[REDACTED]"},
      {"sk-0123456789abcdefghijABCDEFGHIJ", "[REDACTED]"},
      {"ghp_0123456789abcdefghijABCDEFGHIJklmn", "[REDACTED]"},
      {"gho_0123456789abcdefghijABCDEFGHIJklmn", "[REDACTED]"},
      {"ghs_0123456789abcdefghijABCDEFGHIJklmn", "[REDACTED]"},
      {"ghu_0123456789abcdefghijABCDEFGHIJklmn", "[REDACTED]"},
      {"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "[REDACTED]"},
      {"glpat-abcdefghij0123456789", "[REDACTED]"},
      {"AKIAIOSFODNN7EXAMPLE", "[REDACTED]"},
      {"ASIAIOSFODNN7EXAMPLE", "[REDACTED]"},
      {"xoxb-123456789012-abcdefABCDEF", "[REDACTED]"},
      {"xoxp-1234-5678-abcdef", "[REDACTED]"},
      {"AIzaSyA-0123456789abcdefghijklmnopqrstu", "[REDACTED]"},
      {"npm_abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]"},
      {"sk_live_abcdefghijklmnop1234", "[REDACTED]"},
      {"hf_abcdefghijklmnopqrstuvwxyz01234567", "[REDACTED]"},
      {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_"
       "XgL0n3I9PlFUP0THsR8U",
       "[REDACTED]"},
      // Inside a longer argument: only the token goes.
      {"key=sk-ant-api03-AbCdEf0123456789xyz", "key=[REDACTED]"},
      {"https://ghp_0123456789abcdefghijABCDEFGHIJklmn@github.com/o/r",
       "https://[REDACTED]@github.com/o/r"},
      {"echo AKIAIOSFODNN7EXAMPLE done", "echo [REDACTED] done"},
      // Auth headers keep their scheme.
      {"Authorization: Bearer abc.def-123_456", "Authorization: Bearer [REDACTED]"},
      {"Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED]"},
      {"authorization: bearer abcdefghijklmnopqrstuvwxyz", "authorization: bearer [REDACTED]"},
      {"Authorization: token 0123456789abcdef", "Authorization: token [REDACTED]"},
      // Secret options keep their name.
      {"--password=hunter2", "--password=[REDACTED]"},
      {"--token=abc", "--token=[REDACTED]"},
      {"--api-key=abc123", "--api-key=[REDACTED]"},
      {"--api_key=abc123", "--api_key=[REDACTED]"},
      {"--secret=s3cr3t", "--secret=[REDACTED]"},
      {"--client-secret=s3cr3t", "--client-secret=[REDACTED]"},
      {"--db-password='a b c'", "--db-password=[REDACTED]"},
      {"mysql --password=hunter2 db", "mysql --password=[REDACTED] db"},
      // Variable assignments with a secret-looking name.
      {"GITHUB_TOKEN=abcdef", "GITHUB_TOKEN=[REDACTED]"},
      {"OPENAI_API_KEY=whatever", "OPENAI_API_KEY=[REDACTED]"},
      {"env DB_PASSWORD=x make", "env DB_PASSWORD=[REDACTED] make"},
      // URL passwords; the user stays.
      {"https://alice:s3cret@example.com/x", "https://alice:[REDACTED]@example.com/x"},
      {"postgres://u:p%40ss@db:5432/app", "postgres://u:[REDACTED]@db:5432/app"},
      {"git clone https://bob:pw@host/r.git && x://c:d@e",
       "git clone https://bob:[REDACTED]@host/r.git && x://c:[REDACTED]@e"},
      // Matches start at word boundaries only, wherever the word stands.
      {"a,sk-0123456789abcdefghijABCDEFGHIJ;b", "a,[REDACTED];b"},
      {"xsk-0123456789abcdefghijABCDEFGHIJ", "xsk-0123456789abcdefghijABCDEFGHIJ"},
      {"9AKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE", "9AKIAIOSFODNN7EXAMPLE [REDACTED]"},
      {"--token=a --password=b", "--token=[REDACTED] --password=[REDACTED]"},
      {"ghp_0123456789abcdefghijABCDEFGHIJklmn/ghp_0123456789abcdefghijABCDEFGHIJklmn",
       "[REDACTED]/[REDACTED]"},
      {"  \tTOKEN=x", "  \tTOKEN=[REDACTED]"},
  };
  for (const Row& r : rows) {
    CAPTURE(r.in);
    CHECK(redact_arg(r.in) == r.out);
  }
}

TEST_CASE("ordinary arguments survive redaction") {
  const char* keep[] = {
      "",
      "ls",
      "-la",
      "--verbose",
      "/usr/bin/git",
      "git",
      "--version",
      "sk-learn",
      "scikit-learn",
      "sk-learn-very-long-hyphenated-package-name",
      "task-runner-with-a-long-name-that-goes-on",
      "ghp_short",
      "AKIA",
      "AKIAshort",
      "AKIAIOSFODNN7EXAMPLEX",  // 17 characters after AKIA: not a key id
      "MASKIAIOSFODNN7EXAMPLE",
      "Basic authentication is disabled",
      "Bearer bonds",
      "token expired",
      "the token is",
      "--max-tokens=100",
      "--token-file=/run/secrets/t",
      "--password-file=/etc/pw",
      "--password=",
      "--sort-key=name",
      "--bypass=yes",
      "PATH=/usr/bin:/bin",
      "LANG=C.UTF-8",
      "https://example.com/path?q=1",
      "https://user@example.com/",
      "ssh://git@github.com:22/org/repo.git",
      "git@github.com:org/repo.git",
      "http://[::1]:8080/",
      "eyJhbGciOiJIUzI1NiJ9",
      "hello world",
      "caf\xc3\xa9",
      "xoxb-",
  };
  for (const char* k : keep) {
    CAPTURE(k);
    CHECK(redact_arg(k) == k);
  }
}

TEST_CASE("the value after a bare secret option is redacted") {
  std::vector<std::string> argv = {"mysql", "--password",   "hunter2", "--user", "bob",   "--token",
                                   "abc",   "--max-tokens", "100",     "-p",     "secret"};
  std::vector<std::string> want = {"mysql", "--password", "[REDACTED]", "--user",
                                   "bob",   "--token",    "[REDACTED]", "--max-tokens",
                                   "100",   "-p",         "secret"};
  CHECK(redact_argv(argv) == want);
}

TEST_CASE("secret option names are recognised by their last word") {
  struct Row {
    const char* name;
    bool secret;
  };
  const Row rows[] = {
      {"--password", true},    {"--passwd", true},        {"--db-password", true},
      {"--token", true},       {"--github-token", true},  {"--auth-token", true},
      {"--secret", true},      {"--client-secret", true}, {"--api-key", true},
      {"--apikey", true},      {"--API_KEY", true},       {"--secret-key", true},
      {"--passphrase", true},  {"password", true},        {"--max-tokens", false},
      {"--token-file", false}, {"--tokenizer", false},    {"--key", false},
      {"--user", false},       {"--bypass", false},       {"--secrets-dir", false},
  };
  for (const Row& r : rows) {
    CAPTURE(r.name);
    CHECK(is_secret_option(r.name) == r.secret);
  }
}

TEST_CASE("a Redactor removes exact secret values wherever they appear") {
  Redactor r;
  r.add_secret("hunter22");
  r.add_secret("short");  // too short to remove safely: ignored
  r.add_secret("abcdef-longer-secret");
  r.add_secret("abcdef");  // a prefix of another secret: the longer goes first
  CHECK(r.secret_count() == 3);
  CHECK(r.redact("pw=hunter22;again hunter22") == "pw=[REDACTED];again [REDACTED]");
  CHECK(r.redact("x abcdef-longer-secret y abcdef z") == "x [REDACTED] y [REDACTED] z");
  CHECK(r.redact("a short word") == "a short word");
  CHECK(r.redact("/home/u/hunter22/file") == "/home/u/[REDACTED]/file");
  // Patterns still apply.
  CHECK(r.redact("--token=x") == "--token=[REDACTED]");
  CHECK(r.redact_argv({"cmd", "hunter22", "--password", "zz"}) ==
        std::vector<std::string>{"cmd", "[REDACTED]", "--password", "[REDACTED]"});
}

TEST_CASE("a Redactor learns secrets from the values of secret-looking variables") {
  Redactor r;
  r.add_secret_environment({"ANTHROPIC_API_KEY=sk-secret-value-1", "PATH=/usr/bin:/bin",
                            "HOME=/home/alice", "GH_TOKEN=tok123456", "NOEQUALS",
                            "MY_PASSWORD=pw"});
  CHECK(r.secret_count() == 2);
  CHECK(r.redact("x sk-secret-value-1 tok123456 /home/alice") ==
        "x [REDACTED] [REDACTED] /home/alice");
}

TEST_CASE("redaction stays fast on hostile input") {
  // Many overlapping candidate starts; a quadratic scan would take minutes.
  std::string s;
  for (int i = 0; i < 20000; ++i) s += "sk-";
  CHECK(redact_arg(s) == s);
  std::string jwt;
  for (int i = 0; i < 20000; ++i) jwt += "eyJ.";
  CHECK(redact_arg(jwt) == jwt);
  std::string names;
  for (int i = 0; i < 20000; ++i) names += "A_";
  CHECK(redact_arg(names) == names);
}

}  // namespace aj

namespace aj {

TEST_CASE("a secret cut short at the end of a string (the supervisor's cap) is redacted") {
  Redactor r;
  const std::string secret = "PEMKEY" + std::string(5000, 'q') + "END";
  r.add_secret(secret);
  // As the supervisor reads a long argument: its start, then the cut marker.
  const std::string cut = "x=" + secret.substr(0, 4000) + std::string(kCutMarker);
  CHECK(r.redact(cut) == "x=" + std::string(kRedacted) + std::string(kCutMarker));
  // Ending a string without the marker too, and not when only the first
  // bytes happen to appear in the middle.
  CHECK(r.redact("a " + secret.substr(0, 9)) == "a " + std::string(kRedacted));
  CHECK(r.redact("PEMKEYqq then more") == "PEMKEYqq then more");
  CHECK(r.redact("short PEMKE") == "short PEMKE");  // under kMinSecretLength
}

}  // namespace aj

namespace aj {

TEST_CASE("a token with a well-known prefix cut short by the supervisor's cap is redacted") {
  const std::string cut = std::string(4058, 'A') + " ghp_C3MQabcdefWzWO" + std::string(kCutMarker);
  CHECK(redact_arg(cut) ==
        std::string(4058, 'A') + " ghp_" + std::string(kRedacted) + std::string(kCutMarker));
  // Not cut: too short to be a token, left alone.
  CHECK(redact_arg("see ghp_abc") == "see ghp_abc");
  // Cut, but the prefix is not at the end's token.
  const std::string other = "ghp_ then words" + std::string(kCutMarker);
  CHECK(redact_arg(other) == other);
}

}  // namespace aj
