# jsonflat.py: read JSON on stdin; exit 1 with "INVALID:<reason>" if it does
# not parse or is not an object. Otherwise print "TYPE:object" and one line per
# scalar, "path=value" (path like a.b[2].c; value as JSON), for grepping.
import json
import sys


def walk(node, path):
    if isinstance(node, dict):
        for k, v in node.items():
            walk(v, path + "." + k if path else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            walk(v, "%s[%d]" % (path, i))
    else:
        print("%s=%s" % (path, json.dumps(node)))


try:
    doc = json.loads(sys.stdin.read())
except ValueError as e:
    print("INVALID:%s" % e)
    sys.exit(1)
if not isinstance(doc, dict):
    print("INVALID:top level is %s, not an object" % type(doc).__name__)
    sys.exit(1)
print("TYPE:object")
walk(doc, "")
