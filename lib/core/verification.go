package core

// UnknownStateReason is the reason of a verification verdict whose command
// ran but whose workspace state could not be read, when it ran or now:
// the evidence is tied to no state, so it proves nothing, and views must
// not call it "changed after it ran".
const UnknownStateReason = "workspace_state_unknown"
