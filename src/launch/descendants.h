// Ending every descendant of the calling process, without a PID namespace to
// do it: the jail's init (a subreaper) at the end of a --no-userns session,
// and the supervisor (a subreaper too) when that init died first.
// Async-signal-safe: no allocation, raw system calls only.
#pragma once

namespace aj {

// Kills (SIGKILL, top-down) and reaps every descendant, until none is left.
void kill_descendants() noexcept;

}  // namespace aj
