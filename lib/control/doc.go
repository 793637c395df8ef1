// Package control is the private control socket of a running owner: one
// JSON command per line, answered with an ack or a typed error, served
// only to processes of the same user and dialled only when the listener is
// the same user's. The runtime (lib/agent) registers the handlers; the
// socket knows nothing about tasks. The JSONL port reuses Dispatch so both
// speak the same command grammar.
package control
