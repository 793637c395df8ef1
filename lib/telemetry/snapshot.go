package telemetry

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// HealthFileName is the last health snapshot a process wrote at shutdown,
// read by `fluzo-observe health` from another process.
const HealthFileName = "health.json"

// writeHealthSnapshot replaces the snapshot atomically (temp, fsync,
// rename), so a reader never sees half a file.
func writeHealthSnapshot(dir string, h Health) error {
	b, err := json.Marshal(h)
	if err != nil {
		return err
	}
	tmp := filepath.Join(dir, fmt.Sprintf(".health-%d.tmp", os.Getpid()))
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC|syscallNoFollow, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(append(b, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, filepath.Join(dir, HealthFileName))
}

// ReadHealthSnapshot reads the last snapshot in an archive directory.
func ReadHealthSnapshot(dir string) (*Health, error) {
	b, err := os.ReadFile(filepath.Join(dir, HealthFileName))
	if err != nil {
		return nil, err
	}
	var h Health
	if err := json.Unmarshal(b, &h); err != nil {
		return nil, err
	}
	return &h, nil
}
