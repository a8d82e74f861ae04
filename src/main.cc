#include "app.h"

int main(int argc, char** argv) { return aj::app_main(argc, argv); }
