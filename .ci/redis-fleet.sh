#!/usr/bin/env bash
# Throw-away Redis topologies on loopback, from Debian's redis-server alone (Sentinels too, as
# `redis-server CONF --sentinel`: no redis-sentinel package needed), for the fleet tests and `npm run fleet`:
#   redis-fleet.sh cluster  DIR PORT   three masters on PORT, PORT+1, PORT+2 (bus ports +10000), no replicas
#   redis-fleet.sh sentinel DIR PORT   master on PORT, its replica on PORT+1, three Sentinels on PORT+2..PORT+4
#                                      watching the master as `mymaster` (down after 1 s)
#   redis-fleet.sh stop     DIR        stops every server started in DIR (by the pid files there), nothing else
# Prints one line: `cluster redis://127.0.0.1:P,...` or `sentinel 127.0.0.1:S,...`; exits non-zero when the
# topology does not come up within 60 s. No persistence: every server forgets its data when stopped.
set -euo pipefail

mode=${1:?usage: redis-fleet.sh cluster|sentinel|stop DIR [PORT]}
dir=${2:?a directory for configs, logs and pid files}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

answers() { redis-cli -h 127.0.0.1 -p "$1" ping 2>/dev/null | grep -q PONG; }

wait_for() { # wait_for SECONDS command...: polls until the command succeeds
  local until=$((SECONDS + $1)); shift
  until "$@"; do
    if [ "$SECONDS" -ge "$until" ]; then return 1; fi
    sleep 0.1
  done
}

server() { # server PORT extra-args...
  local port=$1; shift
  redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --daemonize yes \
    --dir "$dir" --pidfile "$dir/redis-$port.pid" --logfile "$dir/redis-$port.log" "$@"
  wait_for 60 answers "$port"
}

case "$mode" in
  cluster)
    port=${3:?PORT}
    nodes=()
    for p in "$port" $((port + 1)) $((port + 2)); do
      server "$p" --cluster-enabled yes --cluster-config-file "nodes-$p.conf" --cluster-node-timeout 2000
      nodes+=("127.0.0.1:$p")
    done
    redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >"$dir/cluster-create.log" 2>&1
    cluster_ok() { for p in "$port" $((port + 1)) $((port + 2)); do redis-cli -p "$p" cluster info | grep -q 'cluster_state:ok' || return 1; done; }
    wait_for 60 cluster_ok
    echo "cluster redis://127.0.0.1:$port,redis://127.0.0.1:$((port + 1)),redis://127.0.0.1:$((port + 2))"
    ;;
  sentinel)
    port=${3:?PORT}
    server "$port"
    server $((port + 1)) --replicaof 127.0.0.1 "$port"
    sentinels=()
    for s in $((port + 2)) $((port + 3)) $((port + 4)); do
      cat >"$dir/sentinel-$s.conf" <<EOF
port $s
bind 127.0.0.1
daemonize yes
dir $dir
pidfile $dir/sentinel-$s.pid
logfile $dir/sentinel-$s.log
sentinel monitor mymaster 127.0.0.1 $port 2
sentinel down-after-milliseconds mymaster 1000
sentinel failover-timeout mymaster 10000
sentinel parallel-syncs mymaster 1
EOF
      # The config file comes first: Redis 7 reads `--sentinel CONF` as an option and stops (FATAL CONFIG FILE ERROR).
      redis-server "$dir/sentinel-$s.conf" --sentinel
      sentinels+=("127.0.0.1:$s")
    done
    synced() { redis-cli -p $((port + 1)) info replication | grep -q 'master_link_status:up'; }
    wait_for 60 synced
    known() { for s in $((port + 2)) $((port + 3)) $((port + 4)); do
      redis-cli -p "$s" sentinel get-master-addr-by-name mymaster 2>/dev/null | grep -q "$port" || return 1; done; }
    wait_for 60 known
    (IFS=,; echo "sentinel ${sentinels[*]}")
    ;;
  stop)
    pids=()
    for pidfile in "$dir"/*.pid; do
      [ -f "$pidfile" ] || continue
      pid=$(cat "$pidfile")
      kill "$pid" 2>/dev/null || true
      pids+=("$pid")
      rm -f "$pidfile"
    done
    # Returns once they have exited: a server still shutting down writes its log and config into DIR, and the
    # caller's removal of DIR then fails with ENOTEMPTY. After 10 s, SIGKILL.
    gone() { for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && return 1; done; return 0; }
    if [ "${#pids[@]}" -gt 0 ] && ! wait_for 10 gone; then
      for pid in "${pids[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
      wait_for 5 gone || true
    fi
    ;;
  *) echo "unknown mode $mode" >&2; exit 2 ;;
esac
