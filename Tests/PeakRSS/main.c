/*
 * PeakRSS: runs a program and reports its own peak resident set size.
 *
 *   PeakRSS REPORT_FILE PROGRAM [ARGUMENTS...]
 *
 * Writes "exit N" (or "signal N") and "maxrss_kb K" lines to REPORT_FILE, then exits 0.
 * stdin, stdout and stderr pass through to PROGRAM.
 *
 * Why a helper: on Linux a process's ru_maxrss includes the memory of the process it was
 * spawned from (exec keeps the high-water mark of the old address space, and
 * posix_spawn's child starts in the parent's). Spawned straight from a test runner, the
 * figure would be the runner's. This helper is small and forks PROGRAM itself, so the
 * child starts from about a megabyte and wait4 reports what PROGRAM used.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 3) {
        fputs("usage: PeakRSS REPORT_FILE PROGRAM [ARGUMENTS...]\n", stderr);
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("PeakRSS: fork");
        return 2;
    }
    if (pid == 0) {
        execv(argv[2], argv + 2);
        perror("PeakRSS: exec");
        _exit(127);
    }
    int status = 0;
    struct rusage usage;
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("PeakRSS: wait4");
            return 2;
        }
    }
    FILE *report = fopen(argv[1], "w");
    if (report == NULL) {
        perror("PeakRSS: report file");
        return 2;
    }
    if (WIFEXITED(status)) fprintf(report, "exit %d\n", WEXITSTATUS(status));
    else fprintf(report, "signal %d\n", WTERMSIG(status));
    fprintf(report, "maxrss_kb %ld\n", usage.ru_maxrss);
    fclose(report);
    return 0;
}
