/* Placeholder: the decoder shim (libpng, libjpeg-turbo) lands with issue 2. */
#ifndef GLIMPSE_CIMAGECODECS_H
#define GLIMPSE_CIMAGECODECS_H
int glimpse_codecs_version(void);
#endif
