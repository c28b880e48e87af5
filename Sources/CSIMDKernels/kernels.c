#include "CSIMDKernels.h"
int glimpse_kernels_version(void) { return 1; }
