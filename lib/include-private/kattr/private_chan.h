/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libkattr chan/, private: the netlink channels' decoders and their socket.
 *
 * Not installed, not exported (lib/libkattr.map lists what is); one
 * private header per layer of lib/ (lib/README): a layer's files include
 * its own and, through it, only the layers below, so a call up a layer
 * fails to compile.  Same rules as the public headers: no printing, no
 * exit, -errno.
 */
#ifndef KATTR_PRIVATE_CHAN_H
#define KATTR_PRIVATE_CHAN_H

/* Inside lib/, only a layer that uses chan/ includes this: a call up the
 * layers fails to compile (lib/CMakeLists.txt sets KATTR_USES_*). */
#if defined(KATTR_BUILDING_LIB) && !defined(KATTR_USES_CHAN)
#error "lib/: this layer does not use chan/ (a layer uses only the layers below it: lib/README)"
#endif

#include <stddef.h>
#include <stdint.h>

#include "kattr/private_core.h"
#include "kattr/procev.h"
#include "kattr/taskstats.h"

/* ---- chan (kattr/taskstats.h): beneath a root handle ------------------- */

/* kattr_delayacct_enabled() beneath root (NULL: the default root). */
int kattr_delayacct_enabled_at(const struct kattr_root *root);
/* kattr_taskexit_open(), the CPU list read beneath root. */
int kattr_taskexit_open_at(const struct kattr_root *root, int rcvbuf,
			   struct kattr_taskexit_sock **out);

/* ---- chan (kattr/procev.h): decoding, per-CPU sequence tracking ------- */

/* The event as a word ("fork", "exec", ...). */
const char *kattr_procev_type_name(enum kattr_procev_type type);

/*
 * Decode every proc connector message in buf (one recv(2)'s worth).
 * Messages that are not proc connector events are skipped; a truncated
 * message or event is -EBADMSG; an NLMSG_ERROR carrying an error is that
 * error.  Returns the number of events passed to cb.
 */
int kattr_procev_decode(const void *buf, size_t len,
			kattr_procev_cb cb, void *data);

/* Per-CPU sequence tracking (pure). */
#define KATTR_PROCEV_MAX_CPUS 4096

struct kattr_procev_seq {
	uint32_t *last;		/* next expected seq per CPU */
	uint8_t *seen;
	size_t ncpus;
	uint64_t lost;		/* events known to be lost, in all */
};

void kattr_procev_seq_init(struct kattr_procev_seq *s);
void kattr_procev_seq_free(struct kattr_procev_seq *s);
/* Forget every CPU's position (after a resubscription or a rescan). */
void kattr_procev_seq_reset(struct kattr_procev_seq *s);
/*
 * Account one event: returns how many events of that CPU were skipped
 * before it (0 when in order), or -ENOMEM / -ERANGE (cpu too large).
 * NONE events (acknowledgements) carry no per-CPU number and are
 * ignored.
 */
long kattr_procev_seq_check(struct kattr_procev_seq *s,
			    const struct kattr_procev *ev);

/* ---- chan (kattr/taskstats.h): netlink replies ------------------------ */

/*
 * Parse one TASKSTATS_CMD_NEW reply (the whole netlink message) into out.
 * -EBADMSG when malformed, -ENODATA without a stats attribute, the error
 * of an NLMSG_ERROR reply.
 */
int kattr_taskstats_parse(const void *buf, size_t len,
			  struct kattr_taskstats *out);
/* Same for a CGROUPSTATS_CMD_NEW reply. */
int kattr_cgroupstats_parse(const void *buf, size_t len,
			    struct kattr_cgroupstats *out);
/*
 * Parse a CTRL_CMD_NEWFAMILY reply: the family id, or -ENODATA / -EBADMSG
 * / the error of an NLMSG_ERROR reply.
 */
int kattr_genl_family_parse(const void *buf, size_t len);
/*
 * Parse one datagram of exit records (TASKSTATS_CMD_NEW: AGGR_PID, and
 * AGGR_TGID for the last thread of a multi-threaded process), calling cb
 * for each AGGR_PID one.  The count, or -EBADMSG (an acknowledgement
 * too), or an NLMSG_ERROR's error, or cb's error.
 */
int kattr_taskexit_parse(const void *buf, size_t len, kattr_taskexit_cb cb,
			 void *data);


/* ---- chan: the socket (netlink.c) ------------------------------------ */

struct mnl_socket;
/*
 * libmnl builds: a netlink socket of bus opened with flags (SOCK_*), its
 * receive buffer set to rcvbuf (if > 0), bound to groups.  0 or -errno.
 */
int kattr_mnl_open(int bus, int flags, int rcvbuf, unsigned int groups,
		   struct mnl_socket **out);
/* A socket's receive buffer set to size (SO_RCVBUFFORCE, else SO_RCVBUF). */
int kattr_nl_set_rcvbuf(int fd, int size);

#endif /* KATTR_PRIVATE_CHAN_H */
