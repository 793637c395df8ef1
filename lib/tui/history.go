package tui

import (
	"encoding/json"
	"fmt"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// historyPage is how many stored events one page of history asks for.
const historyPage = 200

// history tracks which seqs of the current session the screen holds, so
// older pages are asked for on demand and a seq gap in the live stream
// is re-paged from the store (PORT PROTOCOL, subscription and resync).
type history struct {
	session  string
	low      int64 // lowest seq held; 1 means the whole session
	last     int64 // highest seq held
	gapTo    int64 // a gap (last held, gapTo) is being re-paged
	olderReq string
	gapReq   string
}

func (a *App) olderAvailable() bool { return a.hist.session != "" && a.hist.low > 1 }

// loadTail asks for the last page of a session the screen opens on.
func (a *App) loadTail(session string, seq int64) {
	if session == "" || seq <= 0 {
		return
	}
	after := max(seq-historyPage, 0)
	a.hist = history{session: session, low: after + 1, last: seq}
	a.hist.olderReq = a.send(port.Events(session, after, historyPage))
}

// loadOlder asks for the page before the oldest seq held.
func (a *App) loadOlder() {
	if !a.olderAvailable() || a.hist.olderReq != "" {
		return
	}
	after := max(a.hist.low-1-historyPage, 0)
	limit := int(a.hist.low - 1 - after)
	a.hist.olderReq = a.send(port.Events(a.hist.session, after, limit))
	a.hist.low = after + 1
}

// seen reports whether a live event was already held (a duplicate from
// the snapshot race) and notices gaps, which it re-pages.
func (a *App) seen(ev *port.Event) bool {
	if ev.Seq <= 0 || ev.Session == "" {
		return false
	}
	if ev.Session != a.hist.session { // a new session (a new task): held from here
		a.hist = history{session: ev.Session, low: ev.Seq, last: ev.Seq}
		return false
	}
	if ev.Seq <= a.hist.last && ev.Seq >= a.hist.low {
		return true
	}
	if ev.Seq > a.hist.last+1 && a.hist.gapReq == "" {
		a.hist.gapTo = ev.Seq
		a.hist.gapReq = a.send(port.Events(a.hist.session, a.hist.last, int(ev.Seq-a.hist.last-1)))
	}
	if ev.Seq > a.hist.last {
		a.hist.last = ev.Seq
	}
	return false
}

type eventsPage struct {
	Events []json.RawMessage `json:"events"`
	More   bool              `json:"more"`
}

// historyAck applies an events page; it reports false for other acks.
func (a *App) historyAck(ack *port.Ack) bool {
	switch ack.Re {
	case a.hist.olderReq:
		a.hist.olderReq = ""
		a.prependHistory(decodePage(ack.Data))
	case a.hist.gapReq:
		a.hist.gapReq = ""
		for _, ev := range decodePage(ack.Data) {
			if ev.Seq < a.hist.gapTo {
				a.applyEvent(ev)
			}
		}
	default:
		return false
	}
	return true
}

func decodePage(raw json.RawMessage) []*port.Event {
	var p eventsPage
	json.Unmarshal(raw, &p)
	var out []*port.Event
	for _, line := range p.Events {
		var ev port.Event
		if json.Unmarshal(line, &ev) == nil {
			out = append(out, &ev)
		}
	}
	return out
}

// prependHistory rebuilds the items of older stored events on a scratch
// screen state and puts them before what is shown. A paused view keeps
// its place: its anchor moves down by the rows added.
func (a *App) prependHistory(evs []*port.Event) {
	if len(evs) == 0 {
		return
	}
	scratch := &App{opts: a.opts, clock: a.clock, p: a.p, th: a.th, info: a.info, follow: true, pending: map[string]string{}}
	scratch.opts.Port = nil
	for _, ev := range evs {
		scratch.applyEvent(ev)
	}
	keepLive := a.phase == phaseWaiting && a.pendingApproval() == nil
	for i := len(scratch.items) - 1; i >= 0; i-- {
		it := scratch.items[i]
		if it.kind == itemApproval && it.approval.state == approvalPending {
			if keepLive {
				keepLive = false // the task waits for this one now
				continue
			}
			scratch.markStale(it)
		}
	}
	added := 0
	for _, it := range scratch.items {
		added += len(a.lines(it, a.layout().textW))
	}
	a.items = append(scratch.items, a.items...)
	a.selected += len(scratch.items)
	if !a.follow {
		a.scroll += added
	}
	if len(a.items) > maxItems {
		a.items = a.items[:maxItems] // keep the page asked for; the newest stay reachable live
	}
}

// historyRows is the row above the oldest item: how to see more.
func (a *App) historyRows() []line {
	switch {
	case a.hist.olderReq != "":
		return []line{{span("  loading older history…", theme.Subtle)}, {}}
	case a.olderAvailable():
		return []line{{span(fmt.Sprintf("  older history (events 1–%d) · g or Home at the top loads it", a.hist.low-1), theme.Subtle)}, {}}
	case a.truncated > 0:
		return []line{{span(fmt.Sprintf("  %d older items left memory · the store keeps them (fluzo replay)", a.truncated), theme.Subtle)}, {}}
	}
	return nil
}
