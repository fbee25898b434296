// The `trainstudio` executable: everything lives in the tsui library (see studio_app.h).
#include "studio_app.h"

int main(int argc, char** argv) { return ts::ui::runStudio(argc, argv); }
