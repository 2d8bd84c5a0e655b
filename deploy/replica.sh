#!/bin/sh
# A streaming replica of the primary (docs/scaling.md), as deploy/topology.ts (startCluster) makes
# it for the tests and `npm run scale-test`. Run as the postgres user.
#   deploy/replica.sh <primary host> <primary port> <replica data dir> <replica port>
# The primary needs wal_level = replica (the default), max_wal_senders > 0 and a pg_hba.conf line
# allowing replication connections from the replica.
set -eu
BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
"$BIN/pg_basebackup" -h "$1" -p "$2" -U postgres -D "$3" -R -X stream -c fast
cat >> "$3/postgresql.conf" <<CONF
port = $4
hot_standby = on
hot_standby_feedback = on
max_standby_streaming_delay = 30s
CONF
"$BIN/pg_ctl" -D "$3" -l "$3/server.log" -w start
