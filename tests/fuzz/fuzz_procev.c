/* libFuzzer: proc connector datagrams through the decoder and the
 * per-CPU sequence tracker; taskstats/cgroupstats/family replies; exit
 * records (kattr_taskexit_parse). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "kattr/procev.h"
#include "kattr/taskstats.h"
#include "kattr/private.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int exit_rec(const struct kattr_taskexit *rec, void *arg)
{
	(void)arg;
	/* comm is always terminated within its array */
	if (strnlen(rec->comm, sizeof(rec->comm)) == sizeof(rec->comm))
		abort();
	return 0;
}

static int track(const struct kattr_procev *ev, void *arg)
{
	(void)kattr_procev_seq_check(arg, ev);
	(void)strlen(ev->comm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kattr_procev_seq seq;
	struct kattr_taskstats ts;
	struct kattr_cgroupstats cs;
	void *buf = malloc(size ? size : 1);	/* aligned, as recv's buffer */

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	kattr_procev_seq_init(&seq);
	(void)kattr_procev_decode(buf, size, track, &seq);
	kattr_procev_seq_free(&seq);
	(void)kattr_taskstats_parse(buf, size, &ts);
	(void)kattr_cgroupstats_parse(buf, size, &cs);
	(void)kattr_genl_family_parse(buf, size);
	(void)kattr_taskexit_parse(buf, size, exit_rec, NULL);
	free(buf);
	return 0;
}
