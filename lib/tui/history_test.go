package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdamore/tcell/v2"
)

func page(events ...string) string {
	return `{"events":[` + strings.Join(events, ",") + `],"next":1,"more":false}`
}

func TestSeqGapIsRepagedAndDuplicatesDropped(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h) // seqs 1..3
	h.records(ev(6, "message", "", `{"role":"assistant","content":"after the gap"}`))
	got := h.port.last("events")
	if got == nil || got["session"] != "ses_1" || got["after_seq"] != int64(3) || got["limit"] != 2 {
		t.Fatalf("gap re-page = %v", got)
	}
	h.ack(page(ev(4, "message", "", `{"role":"assistant","content":"lost four"}`), ev(5, "message", "", `{"role":"assistant","content":"lost five"}`)))
	h.mustShow("lost four")
	h.mustShow("lost five")
	// A line of an already held seq (the snapshot race) is dropped.
	h.records(ev(5, "message", "", `{"role":"assistant","content":"duplicate five"}`))
	if h.contains("duplicate five") {
		t.Fatal("an event already held was applied twice")
	}
}

func TestOlderHistoryIsPagedOnDemand(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	h.app.begin()
	h.records(`{"v":1,"type":"ack","re":"1","data":{"cursor":9,"running":{"session":"","task":"","attempt":"","trace":""},"seqs":{"ses_1":500},"tasks":[{"id":"tsk_1","session":"ses_1","request":"old task","state":"completed"}]}}`)
	got := h.port.last("events")
	if got == nil || got["after_seq"] != int64(300) || got["limit"] != historyPage {
		t.Fatalf("tail page = %v", got)
	}
	var evs []string
	for i := 301; i <= 500; i++ {
		evs = append(evs, ev(i, "message", "", fmt.Sprintf(`{"role":"assistant","content":"message %d"}`, i)))
	}
	h.ack(page(evs...))
	h.mustShow("message 500")
	if len(h.app.items) != 200 {
		t.Fatalf("%d items held", len(h.app.items))
	}
	// Scroll to the top: the notice offers more; g at the top loads it.
	h.keys(key(tcell.KeyTab), runeKey('g'))
	h.mustShow("older history (events 1–300)")
	n := len(h.port.sent)
	h.keys(runeKey('g'))
	if len(h.port.sent) != n+1 {
		t.Fatal("g at the top must ask the port for the older page")
	}
	got = h.port.last("events")
	if got["after_seq"] != int64(100) || got["limit"] != 200 {
		t.Fatalf("older page = %v", got)
	}
	top := h.screenText()[1:10]
	h.ack(page(ev(101, "message", "", `{"role":"assistant","content":"message 101"}`)))
	if h.app.items[0].text != "message 101" {
		t.Fatalf("older items go first, got %q", h.app.items[0].text)
	}
	if strings.Join(h.screenText()[1:10], "\n") == strings.Join(top, "\n") && h.contains("message 101") {
		t.Log("view stayed at the top")
	}
}

func TestHistoryInMemoryIsBounded(t *testing.T) {
	h := newHarness(t, 120, 40, Options{FPS: 0})
	running(h)
	var recs []string
	for i := 0; i < maxItems+50; i++ {
		recs = append(recs, ev(10+i, "message", "", fmt.Sprintf(`{"role":"assistant","content":"m%d"}`, i)))
	}
	h.records(recs...)
	if len(h.app.items) != maxItems || h.app.truncated != 51 {
		t.Fatalf("%d items, %d truncated", len(h.app.items), h.app.truncated)
	}
}
