#ifndef WORK_H
#define WORK_H

/* A checksum of BUF, or -1 - step when fault_sim() fails that step. */
long checksum(const unsigned char *buf, int n);

#endif
