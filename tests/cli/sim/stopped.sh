# Sourced by interrupt.sh and bus.sh (in the folder that holds `out`).
# tmps: the temporaries under out. freeze_writing PID: stop PID (SIGSTOP) at
# a moment it has temporaries on disk, so a signal sent next finds it writing
# however late the shell gets to send it; 0 when caught so, 1 if it never was.
tmps() { find out -name '*.tmp*' | wc -l; }
freeze_writing() {
    local i
    for i in $(seq 1 2000); do
        if [ -d out ] && [ "$(tmps)" -gt 0 ]; then
            kill -STOP "$1" 2>/dev/null
            [ "$(tmps)" -gt 0 ] && return 0
            kill -CONT "$1" 2>/dev/null
        fi
        sleep 0.01
    done
    return 1
}
