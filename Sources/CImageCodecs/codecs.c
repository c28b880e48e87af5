#include "CImageCodecs.h"
int glimpse_codecs_version(void) { return 1; }
