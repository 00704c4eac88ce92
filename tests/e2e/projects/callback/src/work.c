#include "fault.h"
#include "work.h"

long checksum(const unsigned char *buf, int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (fault_sim(i))
			return -1 - i;
		sum = (sum * 31 + buf[i]) % 1000003;
	}
	return sum;
}
