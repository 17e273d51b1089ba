/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Kept for files written before the split: core's private header. */
#ifndef KATTR_INTERNAL_H
#define KATTR_INTERNAL_H

#include "kattr/private_core.h"

#endif
