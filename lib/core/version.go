package core

import (
	"runtime/debug"
	"strings"
)

// Version is the toolkit version every binary reports. scripts/build sets
// it, Commit and Date with -ldflags "-X github.com/josecorral/fluzo/lib/core.Version=…";
// a build without them (go build, go install, go run) keeps the "-dev" mark.
var Version = "0.1.0-dev"

// Commit and Date are the source commit and its commit date (not the build
// time, so that two builds of one commit are byte-identical), set by
// scripts/build. Empty means the build did not set them; the Go toolchain's
// VCS stamp is used then, if the build carries one.
var (
	Commit = ""
	Date   = ""
)

// unknownBuild is shown for a commit or date the binary does not carry
// (go run, a test binary, a build outside a git checkout): never a guess.
const unknownBuild = "unknown"

// VersionLine is what "NAME --version" prints for every binary:
// "NAME VERSION (COMMIT DATE)", the commit and date set by scripts/build
// or else read from the VCS stamp the Go toolchain embeds.
func VersionLine(name string) string {
	commit, date := Commit, Date
	if commit == "" {
		commit, date = buildStamp()
	}
	if date == "" {
		date = unknownBuild
	}
	return name + " " + Version + " (" + commit + " " + date + ")"
}

// buildStamp reads vcs.revision, vcs.time and vcs.modified from the build
// info; a tree with uncommitted changes is marked "-dirty" because the
// commit alone would then claim more than it proves.
func buildStamp() (commit, date string) {
	commit, date = unknownBuild, unknownBuild
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return commit, date
	}
	return stampFrom(info.Settings)
}

func stampFrom(settings []debug.BuildSetting) (commit, date string) {
	commit, date = unknownBuild, unknownBuild
	dirty := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			if s.Value != "" {
				commit = shortCommit(s.Value)
			}
		case "vcs.time":
			if s.Value != "" {
				date = s.Value
			}
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty && commit != unknownBuild {
		commit += "-dirty"
	}
	return commit, date
}

func shortCommit(rev string) string {
	rev = strings.TrimSpace(rev)
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}
