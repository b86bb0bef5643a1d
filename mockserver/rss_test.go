package mockserver_test

import (
	"bufio"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// rssMB is this process's resident set size as top shows it (VmRSS), after
// handing freed memory back to the system; 0 where /proc is missing.
func rssMB() float64 {
	debug.FreeOSMemory()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) / 1024
		}
	}
	return 0
}
