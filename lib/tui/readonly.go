package tui

import "github.com/josecorral/fluzo/lib/port"

// When another process owns the workspace the screen is read-only: h
// reads the stored history (no owner needed) and shows it, nothing can be
// started or answered from it.

func (a *App) loadReadOnly() {
	if a.opts.ReadOnlyHistory == nil || a.readOnlyAsked {
		return
	}
	a.readOnlyAsked = true
	a.setNotice("reading the stored history (read-only)…")
	read := a.opts.ReadOnlyHistory
	go func() {
		evs, err := read()
		if err != nil {
			a.box.putHistory([]port.Event{{Type: "fluzo.tui.read_error", Data: []byte(`"` + safeLine(err.Error()) + `"`)}})
			return
		}
		a.box.putHistory(evs)
	}()
}

func (a *App) readOnlyLoaded(evs []port.Event) {
	a.dirty.all = true
	if len(evs) == 1 && evs[0].Type == "fluzo.tui.read_error" {
		a.setNotice("could not read the history: " + string(evs[0].Data))
		return
	}
	ptrs := make([]*port.Event, len(evs))
	for i := range evs {
		ptrs[i] = &evs[i]
	}
	a.prependHistory(ptrs)
	a.staleApprovals() // nothing is answerable from a read-only view
	a.setNotice("read-only history: the workspace belongs to another process")
}
