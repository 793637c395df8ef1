module github.com/josecorral/fluzo

go 1.26.0

require (
	github.com/BurntSushi/toml v1.6.0
	github.com/google/renameio/v2 v2.0.2
	github.com/mattn/go-sqlite3 v1.14.53
	github.com/rogpeppe/go-internal v1.16.0
	github.com/urfave/cli/v3 v3.14.0
	golang.org/x/sys v0.50.0
)

require golang.org/x/tools v0.26.0 // indirect
