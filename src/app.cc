#include "app.h"

namespace aj {
int app_main(int, char**) { return 0; }
}  // namespace aj
