// SPDX-License-Identifier: GPL-2.0-or-later
/* A process of 4 threads that sleep until killed (rgctl attach's tests). */
#include <pthread.h>
#include <unistd.h>

static void *nap(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(void)
{
	pthread_t t;

	for (int i = 0; i < 3; i++)
		if (pthread_create(&t, NULL, nap, NULL) != 0)
			return 1;
	nap(NULL);
	return 0;
}
