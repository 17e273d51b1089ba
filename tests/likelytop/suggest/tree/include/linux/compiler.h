/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fixture for likelytop --suggest: the hints, as the kernel spells them. */
#ifndef FIXTURE_COMPILER_H
#define FIXTURE_COMPILER_H

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

/* A hint hidden in a macro: the profile names the line that uses it. */
#define WARN_ON(c)	({ int __w = !!(c); unlikely(__w); })

#endif
