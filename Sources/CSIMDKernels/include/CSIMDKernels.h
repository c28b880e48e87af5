/* Placeholder: SIMD kernels with run-time CPU dispatch land with issue 3. */
#ifndef GLIMPSE_CSIMDKERNELS_H
#define GLIMPSE_CSIMDKERNELS_H
int glimpse_kernels_version(void);
#endif
