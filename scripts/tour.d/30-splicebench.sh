# splicebench: vmsplice page gifting against copying, in a few seconds.
step "splicebench: copy, vmsplice and gift into a pipe, with a memcpy baseline" \
	"$B/src/splicebench/splicebench" --quick
step "splicebench: the safety lesson (rewriting vmspliced pages; verify catches it, exit 3)" \
	"$B/src/splicebench/splicebench" --mode copy,vmsplice --consumer verify --size 4K \
	--total 8M --runs 1 --unsafe-reuse || echo "(exit status $?: corrupted data found, as expected)"
