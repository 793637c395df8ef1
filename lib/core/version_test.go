package core

import (
	"runtime/debug"
	"testing"
)

func TestVersionStampFromBuildSettings(t *testing.T) {
	cases := []struct {
		name         string
		settings     []debug.BuildSetting
		commit, date string
	}{
		{"no vcs stamp", nil, "unknown", "unknown"},
		{"clean", []debug.BuildSetting{{Key: "vcs.revision", Value: "3885b21a0c1d2e3f4a5b6c7d8e9f00112233aabb"}, {Key: "vcs.time", Value: "2026-12-01T19:00:00Z"}, {Key: "vcs.modified", Value: "false"}},
			"3885b21a0c1d", "2026-12-01T19:00:00Z"},
		{"dirty", []debug.BuildSetting{{Key: "vcs.revision", Value: "3885b21a0c1d2e3f"}, {Key: "vcs.modified", Value: "true"}},
			"3885b21a0c1d-dirty", "unknown"},
	}
	for _, tc := range cases {
		commit, date := stampFrom(tc.settings)
		if commit != tc.commit || date != tc.date {
			t.Errorf("%s: got (%s %s), want (%s %s)", tc.name, commit, date, tc.commit, tc.date)
		}
	}
}

func TestVersionLinePrefersTheStampSetAtBuildTime(t *testing.T) {
	saved := [3]string{Version, Commit, Date}
	defer func() { Version, Commit, Date = saved[0], saved[1], saved[2] }()
	Version, Commit, Date = "0.2.0", "3885b21a0c1d", "2026-12-01T19:00:00Z"
	if got, want := VersionLine("fluzo-store"), "fluzo-store 0.2.0 (3885b21a0c1d 2026-12-01T19:00:00Z)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	Date = ""
	if got, want := VersionLine("fluzo"), "fluzo 0.2.0 (3885b21a0c1d unknown)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
