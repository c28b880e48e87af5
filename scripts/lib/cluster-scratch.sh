# Sourced (never run) by the scripts that start `glimpse serve` processes beside a throwaway
# PostgreSQL cluster (scripts/cluster-demo.sh, benchmarks/partitions.sh): a scratch folder
# ($work), the cluster's folder ($pgdir, for scripts/pg-test-cluster.sh start), the list of
# started processes ($pids: append each one), wait_until_ready, and an EXIT trap that stops
# only those processes and that cluster and removes both folders.
source scripts/lib/serve-ready.sh
work=$(mktemp -d)
pgdir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  scripts/pg-test-cluster.sh stop "$pgdir" || true
  rm -rf "$work"
}
trap cleanup EXIT
