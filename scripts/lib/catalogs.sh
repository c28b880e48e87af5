# Throwaway catalogs of both kinds for the measurement scripts (sourced, never run):
# benchmarks/index-stores.sh, benchmarks/index-memory.sh.

# catalogs_begin PREFIX: makes the scratch folder $work (/tmp/PREFIX.XXXXXX) and sets $admin
# to a PostgreSQL superuser URL: GLIMPSE_TEST_POSTGRES_URL when set, else a throwaway cluster
# from scripts/pg-test-cluster.sh. On exit the databases new_catalog made are dropped, the
# cluster stopped and $work removed.
catalogs_begin() {
  work=$(mktemp -d "/tmp/$1.XXXXXX")
  catalogs_pgdir=""
  catalogs_databases=()
  admin="${GLIMPSE_TEST_POSTGRES_URL:-}"
  trap catalogs_end EXIT
  if [ -z "$admin" ]; then
    catalogs_pgdir=$(mktemp -d /tmp/glimpse-pg.XXXXXX)
    admin=$(scripts/pg-test-cluster.sh start "$catalogs_pgdir")
  fi
}

# catalogs_end: what catalogs_begin arranged for the exit.
catalogs_end() {
  if [ -n "$admin" ]; then
    for name in "${catalogs_databases[@]}"; do psql "$admin" -qc "DROP DATABASE IF EXISTS $name" >/dev/null 2>&1 || true; done
  fi
  if [ -n "$catalogs_pgdir" ]; then scripts/pg-test-cluster.sh stop "$catalogs_pgdir"; fi
  rm -rf "$work"
}

# new_catalog KIND NAME: sets $db to a new, empty catalog of KIND (sqlite: a file in $work;
# postgres: a new database on $admin's cluster) named after NAME.
new_catalog() {
  if [ "$1" = sqlite ]; then
    db="$work/$2.sqlite"
  else
    local name="glimpse_bench_$$_$2"
    psql "$admin" -qc "CREATE DATABASE $name" >/dev/null
    catalogs_databases+=("$name")
    db="${admin%/*}/$name"
  fi
}
