/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names read from the system (group names, comm, file and function names,
 * facts of a --sysroot tree) are bytes, not text.  One rule for each kind
 * of output, shared by rgctl, likelytop and splicebench (esc.c):
 *
 *   text and --raw  the real bytes, escaped: \xNN for each byte of an
 *                   invalid UTF-8 sequence, each control byte (C0, DEL,
 *                   C1) and the backslash itself; valid UTF-8 as it is.
 *                   Distinct names print distinct; tool_unesc() decodes
 *                   the text back to the name.
 *   CSV             RFC 4180 quoting, invalid UTF-8 repaired (U+FFFD).
 *   JSON            invalid UTF-8 repaired (U+FFFD): JSON is text.
 */
#ifndef SUITE_ESC_H
#define SUITE_ESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum tool_esc_flags {
	/* Spaces too (tabs are control bytes already): --raw outputs
	 * separate their fields with blanks. */
	TOOL_ESC_BLANK = 1u << 0,
	/* Every byte >= 0x80 too: for a terminal whose character set is not
	 * UTF-8 (what tool_esc_locale() returns there). */
	TOOL_ESC_ASCII = 1u << 1,
};

/* Room for the escape of len bytes: at most 4 bytes out per byte in. */
#define TOOL_ESC_SIZE(len) (4 * (size_t)(len) + 1)

/* The n bytes at s print as they are with flags 0 (printable ASCII,
 * no backslash): the usual name, checked eight bytes a step. */
bool tool_esc_plain(const char *s, size_t n);
/* s escaped into p (room TOOL_ESC_SIZE(strlen(s))); returns the NUL. */
char *tool_esc(char *p, const char *s, unsigned int flags);
/*
 * The same into buf of size bytes (at least 4): a name whose escape does
 * not fit is cut after a whole character or escape and ends in "...".
 * Returns buf.
 */
char *tool_esc_to(char *buf, size_t size, const char *s, unsigned int flags);
/* Display columns of tool_esc(s, flags): one per character (a wide one
 * counts as one), four per \xNN. */
size_t tool_esc_width(const char *s, unsigned int flags);
/* s escaped, written to f; EOF when writing failed or without memory. */
int tool_fputs_esc(const char *s, FILE *f, unsigned int flags);
/* TOOL_ESC_ASCII when LC_CTYPE (as set now) is not UTF-8, else 0. */
unsigned int tool_esc_locale(void);
/*
 * The name back from its escape: each \xNN as the byte NN (p has room
 * for strlen(s) + 1).  -EINVAL for a backslash that does not start
 * \xNN, or a \x00, which no escape holds.
 */
int tool_unesc(char *p, const char *s);

/*
 * A name for a message: TOOL_Q(s) is s escaped into a buffer of the
 * caller's (a compound literal, alive until the end of the enclosing
 * block), cut with "..." past TOOL_Q_SIZE bytes.  For arguments of one
 * call: printf("'%s' '%s'", TOOL_Q(a), TOOL_Q(b)) holds both.
 */
#define TOOL_Q_SIZE 640
#define TOOL_Q(s) tool_esc_to((char[TOOL_Q_SIZE]){ 0 }, TOOL_Q_SIZE, (s), 0)

/*
 * CSV (RFC 4180): s as one field into p (room 3 * strlen(s) + 3), quoted
 * when it holds a comma, quote, CR or LF, or starts or ends with a blank
 * (which some readers trim), quotes doubled; invalid UTF-8 as U+FFFD.
 * Returns the terminating NUL.
 */
char *tool_csv(char *p, const char *s);
/* The same, written to f; EOF when writing failed or without memory. */
int tool_fputs_csv(const char *s, FILE *f);

/*
 * JSON strings: s as valid UTF-8, s itself when it is, else a copy with
 * U+FFFD for each byte of an invalid sequence in *buf (grown as needed,
 * *cap its size; free(*buf) when done).  NULL without memory.
 */
const char *tool_json_text(const char *s, char **buf, size_t *cap);
/*
 * s (valid UTF-8: tool_json_text()) as a quoted JSON string into p (room
 * 6 * strlen(s) + 3), escaped as json-c escapes: control characters as
 * \b \n \r \t \f or \u00XX, '"' and '\\'; bytes >= 0x80 and '/' as they
 * are.  Returns the terminating NUL.
 */
char *tool_json_quote(char *p, const char *s);
/* A json-c string of tool_json_text(s) (json-c passes bytes >= 0x80
 * through unchecked); NULL (JSON null) without memory. */
struct json_object;
struct json_object *tool_json_str(const char *s);

#endif
