/*
 * The measured loop: one hinted branch per iteration, its outcome known
 * (true one time in ten).  Compiled once per variant (LP_NAME names the
 * function): plain __builtin_expect, likely_prof.h with LIKELY_PROF, the
 * alternatives it was measured against (one shared atomic counter per
 * site; a plain shared ++ as the 2006 kernel patch did), and gcc
 * -fprofile-arcs.
 */
#include <stdint.h>

#if defined(LP_ATOMIC) || defined(LP_RACY)
/* The same static site record, counted in the site itself. */
struct lp_bench_site {
	const char *func, *file;
	int line, hint;
	uint64_t count[2];
};
# ifdef LP_ATOMIC
#  define LP_COUNT(s, v) __atomic_fetch_add(&(s).count[v], 1, __ATOMIC_RELAXED)
# else
#  define LP_COUNT(s, v) ((s).count[v]++)
# endif
# define unlikely(x) __extension__ ({					\
	static struct lp_bench_site lp_s					\
		__attribute__((section("lp_bench_sites"), used)) =	\
		{ __func__, __FILE__, __LINE__, 0, { 0, 0 } };		\
	int lp_v = !!(x);						\
	LP_COUNT(lp_s, lp_v);						\
	__builtin_expect(lp_v, 0);					\
})
#else
# include <likely_prof.h>
#endif

uint64_t LP_NAME(long n, volatile uint64_t *sink);

uint64_t LP_NAME(long n, volatile uint64_t *sink)
{
	uint64_t taken = 0;

	for (long i = 0; i < n; i++) {
		if (unlikely(i % 10 == 0)) {
			taken++;
			*sink += (uint64_t)i;
		}
	}
	return taken;
}
