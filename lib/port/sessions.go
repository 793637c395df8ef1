package port

// Session commands, for clients whose protocol names a session before its
// first task (the ACP bridge).

// NewSession creates an empty session; the ack's data is {"session":"ses_…"}.
func NewSession(title string) (string, Args) {
	a := Args{}
	if title != "" {
		a["title"] = title
	}
	return "new_session", a
}

// SessionOf asks for one stored session and its tasks.
func SessionOf(session string) (string, Args) { return "session", Args{"session": session} }

// StartTaskIn starts one task in an existing session.
func StartTaskIn(session, request string) (string, Args) {
	name, a := StartTask(request, "", false, nil)
	a["session"] = session
	return name, a
}

// Sessions pages the workspace's sessions, newest first; match filters by
// title or ID.
func Sessions(match string, offset, limit int) (string, Args) {
	a := Args{}
	if match != "" {
		a["match"] = match
	}
	if offset > 0 {
		a["offset"] = offset
	}
	if limit > 0 {
		a["limit"] = limit
	}
	return "sessions", a
}
