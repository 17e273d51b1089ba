/* A shared library with profiled sites (for the likelyprof tests). */
#include <likely_prof.h>

int lp_dso_work(int n);

__attribute__((visibility("default"))) int lp_dso_work(int n)
{
	int odd = 0;

	for (int i = 0; i < n; i++)
		if (unlikely(i % 2)) /* SITE:dso */
			odd++;
	return odd;
}
