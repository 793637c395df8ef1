package core

// Version is the toolkit version every binary reports. Release builds may
// override it with -ldflags "-X github.com/josecorral/fluzo/lib/core.Version=…".
var Version = "0.1.0-dev"
