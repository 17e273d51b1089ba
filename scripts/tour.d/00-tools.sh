# The tools and their versions.
step "The tools" "$B/src/rgctl/rgctl" --version
"$B/src/likelytop/likelytop" --version
"$B/src/splicebench/splicebench" --version
