// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsmartcols and libmnl, loaded by the commands that call them.
 *
 * Every shared library rgctl is linked with costs every call its mapping
 * and relocation, about 65 us each here (bench/rgctl/cost.sh): more than
 * a tenth of a "rgctl create".  Only list, get and the resource commands
 * print tables (libsmartcols), only classify and stats talk netlink
 * (libmnl, through libkattr.a's proc connector and taskstats channels).
 * So rgctl defines the functions it calls itself, each of which loads the
 * library (dlopen(3), by its soname) the first time one of its functions
 * is called, and calls the library's own through the pointer dlsym(3)
 * gives; the link drops the two libraries (--as-needed, src/rgctl/
 * CMakeLists.txt) and tests/rgctl/lazylib.sh checks that they are not
 * in rgctl's NEEDED.  The Debian package depends on them by name.
 *
 * The prototypes are the headers' own (a wrapper that differs does not
 * compile).  A library that cannot be loaded ends rgctl with a message
 * naming it (the package depends on it: it is there unless removed by
 * force).  A function of the two libraries rgctl starts to call must be
 * added here, or the link keeps the library (the test fails).
 */
#include <dlfcn.h>
#include <stdlib.h>

#include "config.h"
#include "rgctl.h"

#include <libsmartcols/libsmartcols.h>
#if WITH_LIBMNL
#include <libmnl/libmnl.h>
#endif

struct lazylib {
	const char *soname;
	const char *what;	/* what rgctl needs it for, for the message */
	void *handle;
};

/* The library's function name, loading the library first if need be. */
static void *lazy_sym(struct lazylib *lib, const char *name)
{
	void *fn;

	if (!lib->handle)
		lib->handle = dlopen(lib->soname, RTLD_NOW | RTLD_LOCAL);
	if (!lib->handle)
		tool_die(EXIT_FAIL, "cannot load %s (%s): %s", lib->soname,
			 lib->what, dlerror());
	fn = dlsym(lib->handle, name);
	if (!fn)
		tool_die(EXIT_FAIL, "cannot find %s in %s: %s", name, lib->soname,
			 dlerror());
	return fn;
}

/* A function of lib: ret name params, called with args. */
#define LAZY(lib, ret, name, params, args)				\
	ret name params							\
	{								\
		static __typeof__(&name) fn;				\
		if (!fn)						\
			fn = (__typeof__(&name))lazy_sym(&lib, #name);	\
		return fn args;						\
	}
#define LAZY_VOID(lib, name, params, args)				\
	void name params						\
	{								\
		static __typeof__(&name) fn;				\
		if (!fn)						\
			fn = (__typeof__(&name))lazy_sym(&lib, #name);	\
		fn args;						\
	}

static struct lazylib scols = { "libsmartcols.so.1", "table output", NULL };

LAZY(scols, struct libscols_table *, scols_new_table, (void), ())
LAZY_VOID(scols, scols_unref_table, (struct libscols_table *tb), (tb))
LAZY(scols, int, scols_print_table, (struct libscols_table *tb), (tb))
LAZY(scols, int, scols_print_table_to_string,
     (struct libscols_table *tb, char **data), (tb, data))
LAZY(scols, int, scols_table_enable_json, (struct libscols_table *tb, int enable),
     (tb, enable))
LAZY(scols, int, scols_table_enable_noencoding,
     (struct libscols_table *tb, int enable), (tb, enable))
LAZY(scols, int, scols_table_enable_noheadings,
     (struct libscols_table *tb, int enable), (tb, enable))
LAZY(scols, int, scols_table_enable_raw, (struct libscols_table *tb, int enable),
     (tb, enable))
LAZY(scols, int, scols_table_set_name, (struct libscols_table *tb, const char *name),
     (tb, name))
LAZY(scols, struct libscols_column *, scols_table_new_column,
     (struct libscols_table *tb, const char *name, double whint, int flags),
     (tb, name, whint, flags))
LAZY(scols, struct libscols_line *, scols_table_new_line,
     (struct libscols_table *tb, struct libscols_line *parent), (tb, parent))
LAZY(scols, int, scols_column_set_json_type, (struct libscols_column *cl, int type),
     (cl, type))
LAZY(scols, int, scols_line_refer_data,
     (struct libscols_line *ln, size_t n, char *data), (ln, n, data))
LAZY(scols, int, scols_line_set_data,
     (struct libscols_line *ln, size_t n, const char *data), (ln, n, data))

#if WITH_LIBMNL
static struct lazylib mnl = { "libmnl.so.0", "netlink: proc connector, taskstats", NULL };

LAZY(mnl, struct mnl_socket *, mnl_socket_open2, (int bus, int flags), (bus, flags))
LAZY(mnl, int, mnl_socket_bind, (struct mnl_socket *nl, unsigned int groups, pid_t pid),
     (nl, groups, pid))
LAZY(mnl, int, mnl_socket_close, (struct mnl_socket *nl), (nl))
LAZY(mnl, int, mnl_socket_get_fd, (const struct mnl_socket *nl), (nl))
LAZY(mnl, unsigned int, mnl_socket_get_portid, (const struct mnl_socket *nl), (nl))
LAZY(mnl, ssize_t, mnl_socket_recvfrom,
     (const struct mnl_socket *nl, void *buf, size_t siz), (nl, buf, siz))
LAZY(mnl, ssize_t, mnl_socket_sendto,
     (const struct mnl_socket *nl, const void *req, size_t siz), (nl, req, siz))
LAZY(mnl, struct nlmsghdr *, mnl_nlmsg_put_header, (void *buf), (buf))
LAZY(mnl, void *, mnl_nlmsg_put_extra_header, (struct nlmsghdr *nlh, size_t size),
     (nlh, size))
LAZY(mnl, void *, mnl_nlmsg_get_payload, (const struct nlmsghdr *nlh), (nlh))
LAZY(mnl, size_t, mnl_nlmsg_get_payload_len, (const struct nlmsghdr *nlh), (nlh))
LAZY(mnl, void *, mnl_nlmsg_get_payload_offset,
     (const struct nlmsghdr *nlh, size_t offset), (nlh, offset))
LAZY(mnl, void *, mnl_nlmsg_get_payload_tail, (const struct nlmsghdr *nlh), (nlh))
LAZY(mnl, struct nlmsghdr *, mnl_nlmsg_next, (const struct nlmsghdr *nlh, int *len),
     (nlh, len))
LAZY(mnl, bool, mnl_nlmsg_ok, (const struct nlmsghdr *nlh, int len), (nlh, len))
LAZY(mnl, void *, mnl_attr_get_payload, (const struct nlattr *attr), (attr))
LAZY(mnl, uint16_t, mnl_attr_get_payload_len, (const struct nlattr *attr), (attr))
LAZY(mnl, uint16_t, mnl_attr_get_type, (const struct nlattr *attr), (attr))
LAZY(mnl, uint16_t, mnl_attr_get_u16, (const struct nlattr *attr), (attr))
LAZY(mnl, uint32_t, mnl_attr_get_u32, (const struct nlattr *attr), (attr))
LAZY(mnl, struct nlattr *, mnl_attr_next, (const struct nlattr *attr), (attr))
LAZY(mnl, bool, mnl_attr_ok, (const struct nlattr *attr, int len), (attr, len))
LAZY(mnl, int, mnl_attr_validate,
     (const struct nlattr *attr, enum mnl_attr_data_type type), (attr, type))
LAZY_VOID(mnl, mnl_attr_put_strz, (struct nlmsghdr *nlh, uint16_t type, const char *data),
	  (nlh, type, data))
LAZY_VOID(mnl, mnl_attr_put_u32, (struct nlmsghdr *nlh, uint16_t type, uint32_t data),
	  (nlh, type, data))
#endif
