package agent

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
)

// defaultLoopThreshold is how many consecutive edit → test → fail cycles on
// the same failure count as a loop (PRD §25).
const defaultLoopThreshold = 3

// loopDetector watches the sequence of edits and test runs of one attempt
// and reports when the agent keeps editing without changing the failure.
type loopDetector struct {
	Threshold int
	edited    bool   // an edit happened since the last test run
	failure   string // fingerprint of the failure the streak is about
	cycles    int
}

// Loop describes a detected loop: the repeated failure and how many
// edit → test → fail cycles ended in it.
type Loop struct {
	Failure string `json:"failure"`
	Cycles  int    `json:"cycles"`
}

// observeEdit records a successful workspace edit.
func (d *loopDetector) observeEdit() { d.edited = true }

// observeTest records a test run. failure is "" when it passed, otherwise
// its fingerprint (see failureFingerprint). It returns a loop when this run
// completes threshold (or a further multiple of threshold) cycles on the
// same failure, so each streak is reported once per threshold cycles.
func (d *loopDetector) observeTest(failure string) *Loop {
	threshold := d.Threshold
	if threshold <= 0 {
		threshold = defaultLoopThreshold
	}
	edited := d.edited
	d.edited = false
	switch {
	case failure == "":
		d.failure, d.cycles = "", 0
		return nil
	case !edited:
		// Rerunning a test without editing is not an edit cycle; the
		// streak neither grows nor resets.
		if failure != d.failure {
			d.failure, d.cycles = failure, 0
		}
		return nil
	case failure != d.failure:
		d.failure, d.cycles = failure, 1
	default:
		d.cycles++
	}
	if d.cycles >= threshold && d.cycles%threshold == 0 {
		return &Loop{Failure: failure, Cycles: d.cycles}
	}
	return nil
}

var (
	failureLine = regexp.MustCompile(`(?i)(fail|panic|assert|error|left:|right:|want|got)`)
	volatile    = regexp.MustCompile(`0x[0-9a-fA-F]+|[0-9]+(\.[0-9]+)?(ms|s|µs|ns)?`)
)

// failureFingerprint identifies a failing run by the command and the
// failure lines of its output with numbers, durations and addresses
// blanked, so two runs failing the same way match even when timings differ.
func failureFingerprint(command, output string) string {
	seen := map[string]bool{}
	var lines []string
	for _, l := range strings.Split(output, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || !failureLine.MatchString(l) {
			continue
		}
		l = volatile.ReplaceAllString(l, "#")
		if !seen[l] {
			seen[l] = true
			lines = append(lines, l)
		}
	}
	sort.Strings(lines)
	h := sha256.Sum256([]byte(command + "\x00" + strings.Join(lines, "\n")))
	return hex.EncodeToString(h[:8])
}
