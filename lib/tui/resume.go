package tui

import (
	"fmt"
	"strings"

	"github.com/josecorral/fluzo/lib/port"
	"github.com/josecorral/fluzo/lib/tui/theme"
)

// Resuming is an explicit action that first shows the revalidation — the
// port's resume_preview, computed by the same checks resume makes — and
// only its confirmation sends resume: what changed in the workspace, the
// files the new attempt must view again, the grants and the YOLO of
// earlier attempts that are dropped, unknown outcomes that are not
// replayed, and the budget carried forward.

type resumePreview struct {
	Task      string `json:"task"`
	State     string `json:"state"`
	Resumable bool   `json:"resumable"`
	Refusal   string `json:"refusal"`
	Workspace struct {
		Recorded *gitState `json:"recorded"`
		Current  gitState  `json:"current"`
		Moved    bool      `json:"moved"`
	} `json:"workspace"`
	Files struct {
		Checked int `json:"checked"`
		Stale   []struct {
			Path string `json:"path"`
		} `json:"stale"`
	} `json:"files"`
	Unknown []struct {
		ID   string `json:"id"`
		Tool string `json:"tool"`
	} `json:"unknown_operations"`
	Grants []struct {
		Spec  string `json:"spec"`
		Scope string `json:"scope"`
	} `json:"dropped_grants"`
	YoloBefore bool  `json:"yolo_before"`
	YoloNow    bool  `json:"yolo_now"`
	Turns      int   `json:"carried_turns"`
	Tokens     int64 `json:"carried_tokens"`
}

type gitState struct {
	Branch string `json:"branch"`
	Head   string `json:"head"`
}

func (g gitState) String() string {
	b := g.Branch
	if b == "" {
		b = "a detached HEAD"
	}
	h := g.Head
	if len(h) > 12 {
		h = h[:12]
	}
	if h == "" {
		h = "no commit"
	}
	return safeLine(b + " at " + h)
}

// resumeState is one resume confirmation: the task it names, its
// revalidation once answered, and the view it returns to when declined.
type resumeState struct {
	target  taskRow
	preview *resumePreview
	req     string
	back    dialogKind
}

// askResume asks for the revalidation of t and opens the confirmation.
func (a *App) askResume(t taskRow, back dialogKind) {
	if a.taskActive() { // one writer: the runtime would refuse it as busy
		a.setNotice("resume: a task is running; resume " + safeLine(t.ID) + " once it ends")
		return
	}
	a.rs = resumeState{target: t, back: back}
	a.rs.req = a.send(port.ResumePreview(t.ID))
	a.openDialog(dialogResume)
}

func (a *App) askResumeCurrent() {
	a.askResume(taskRow{ID: a.task.id, Session: a.task.session, Request: a.task.request, State: a.task.state, Reason: a.task.reason}, dialogNone)
}

func (a *App) previewAck(ack *port.Ack) {
	if ack.Re != a.rs.req {
		return
	}
	var d struct {
		Preview resumePreview `json:"preview"`
	}
	if !decodeData(ack.Data, &d) || d.Preview.Task != a.rs.target.ID {
		a.setNotice("the resume check could not be read")
		return
	}
	a.rs.preview = &d.Preview
}

// resumeSpec is the confirmation: the revalidation, one fact a line.
func (a *App) resumeSpec() dialogSpec {
	t := a.rs.target
	spec := dialogSpec{title: "Resume " + safeLine(t.ID) + "?", choices: [2]string{"Not now", "Resume"}, letter: 'r'}
	pv := a.rs.preview
	if pv == nil {
		spec.body = []string{"checking what changed since the task ran…", "Nothing runs until you confirm."}
		return spec
	}
	spec.body = append(spec.body, workspaceLine(pv), filesLine(pv), grantsLine(pv), yoloLine(pv))
	if pv.YoloNow {
		spec.body = append(spec.body, "YOLO is on now: the new attempt runs under it.")
	}
	if n := len(pv.Unknown); n > 0 {
		spec.body = append(spec.body, fmt.Sprintf("%d operation(s) with an unknown outcome: not replayed.", n))
	}
	spec.body = append(spec.body, fmt.Sprintf("carried forward: %d turn(s), %d token(s).", pv.Turns, pv.Tokens))
	if pv.Refusal != "" {
		spec.body = append(spec.body, "cannot resume: "+safeLine(pv.Refusal))
		spec.choices[1] = "Resume (refused)"
	} else {
		spec.body = append(spec.body, "A new attempt starts only when you confirm.")
	}
	spec.body = wrapBody(spec.body, resumeBodyWidth)
	return spec
}

// resumeBodyWidth is the confirmation's text width (the dialog is 64
// wide with a 2-cell margin each side); narrower screens truncate.
const resumeBodyWidth = 60

// wrapBody word-wraps each fact so none is cut at the dialog's edge.
func wrapBody(body []string, width int) []string {
	var out []string
	for _, b := range body {
		for _, l := range wrapLine(line{span(b, theme.Base)}, width) {
			s := ""
			for _, sp := range l {
				s += sp.Text
			}
			out = append(out, strings.TrimRight(s, " "))
		}
	}
	return out
}

func workspaceLine(pv *resumePreview) string {
	w := pv.Workspace
	switch {
	case w.Recorded == nil:
		return "workspace: no revision recorded; now on " + w.Current.String()
	case w.Moved:
		return "workspace MOVED: was " + w.Recorded.String() + ", now " + w.Current.String() + "."
	}
	return "workspace: unchanged, " + w.Current.String()
}

// filesLine names up to three changed files; the rest are counted.
func filesLine(pv *resumePreview) string {
	st := pv.Files.Stale
	if len(st) == 0 {
		return fmt.Sprintf("files: %d checked, none changed since.", pv.Files.Checked)
	}
	var names []string
	for i, f := range st {
		if i == 3 {
			names = append(names, fmt.Sprintf("+%d more", len(st)-3))
			break
		}
		names = append(names, safeLine(f.Path))
	}
	return fmt.Sprintf("files changed since (viewed again first): %s", strings.Join(names, ", "))
}

func grantsLine(pv *resumePreview) string {
	if len(pv.Grants) == 0 {
		return "grants: none to drop."
	}
	var specs []string
	for i, g := range pv.Grants {
		if i == 3 {
			specs = append(specs, fmt.Sprintf("+%d more", len(pv.Grants)-3))
			break
		}
		specs = append(specs, safeLine(g.Spec))
	}
	return fmt.Sprintf("dropped: %d grant(s) (%s).", len(pv.Grants), strings.Join(specs, ", "))
}

func yoloLine(pv *resumePreview) string {
	if pv.YoloBefore {
		return "dropped: YOLO of an earlier attempt (not restored)."
	}
	return "YOLO: not used by earlier attempts."
}

// confirmResume sends resume once the revalidation says it can start.
func (a *App) confirmResume() {
	pv := a.rs.preview
	switch {
	case pv == nil:
		a.dialog = dialogResume // not answered yet: keep asking
		a.setNotice("resume: still checking the workspace")
		return
	case pv.Refusal != "":
		a.setNotice("resume refused: " + safeLine(pv.Refusal))
		return
	}
	t := a.rs.target
	a.dialog = dialogNone
	a.send(port.Resume(t.ID))
	a.task = taskInfo{id: t.ID, session: t.Session, request: safeLine(t.Request), state: "running", startedAt: a.clock.Now()}
	a.info.session = t.Session
	a.phase = phaseRunning
}
