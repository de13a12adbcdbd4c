# Shared by tools/kafka and tools/secantus: waiting for a local engine that was just started, and
# stopping one. Sourced, not run; the caller defines log(), and for wait_until_answering also
# answering() and print_export().

# wait_until_answering NAME PID TIMEOUT_SECONDS POLL_SECONDS STARTED_HERE DOWN_SCRIPT LOG PID_FILE
# Exits 0 (after print_export) once the engine answers; exits 1 when the process dies or does not
# answer in time (stopping it with DOWN_SCRIPT when this run started it).
wait_until_answering() {
  local name="$1" pid="$2" timeout="$3" poll="$4" started_here="$5" down_script="$6" log_file="$7" pid_file="$8"
  local start=$SECONDS
  while :; do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$pid_file"
      log "$name process $pid exited during startup. Last lines of $log_file:"
      tail -n 40 "$log_file" >&2 || true
      exit 1
    fi
    if answering; then
      log "ready after $((SECONDS - start)) s (pid $pid)"
      print_export
      exit 0
    fi
    if ((SECONDS - start >= timeout)); then
      log "$name (pid $pid) did not answer within ${timeout} s. Last lines of $log_file:"
      tail -n 40 "$log_file" >&2 || true
      if [[ -n "$started_here" ]]; then
        log "stopping it"
        bash "$down_script" >&2 || true
      fi
      exit 1
    fi
    sleep "$poll"
  done
}

# stop_engine NAME PID_FILE COMMAND_LINE TIMEOUT_SECONDS
# SIGTERM to the process of PID_FILE when its command line contains COMMAND_LINE (so a reused pid
# is never killed), SIGKILL after TIMEOUT_SECONDS; an engine of this repo without a pid file is
# reported, not killed.
stop_engine() {
  local name="$1" pid_file="$2" command_line="$3" timeout="$4" pid=""
  [[ -f "$pid_file" ]] && pid="$(tr -dc '0-9' <"$pid_file")"
  if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null && ps -ww -o args= -p "$pid" 2>/dev/null | grep -qF -- "$command_line"; then
    log "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    local deadline=$((SECONDS + timeout))
    while kill -0 "$pid" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      log "still running after ${timeout} s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
    fi
    log "stopped"
  else
    log "not running${pid:+ (stale pid file: $pid)}"
    if command -v pgrep >/dev/null 2>&1; then
      local orphans
      orphans="$(pgrep -f -- "$command_line" || true)"
      [[ -n "$orphans" ]] && log "WARNING: $name process(es) for this repo still running without a pid file: $orphans (kill them by pid)"
    fi
  fi
  rm -f "$pid_file"
}
