package release

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// NARHash returns the SRI form ("sha256-" + base64) of the SHA-256 of the
// Nix archive of the tree at path: what `nix hash path` prints, and what a
// flake's vendorHash is for the vendor directory.
func NARHash(path string) (string, error) {
	h := sha256.New()
	if err := WriteNAR(h, path); err != nil {
		return "", err
	}
	return "sha256-" + base64.StdEncoding.EncodeToString(h.Sum(nil)), nil
}

// WriteNAR serialises the tree at path in the Nix archive format: every
// item is a length-prefixed string padded to 8 bytes; a node is "(" type
// … ")"; directory entries are sorted by name bytes; only the executable
// bit of a file's mode is recorded (Nix normalises the rest), and nothing
// else (owner, times) at all, which is why the hash is reproducible.
func WriteNAR(w io.Writer, path string) error {
	n := narWriter{w: w}
	n.str("nix-archive-1")
	n.node(path)
	return n.err
}

type narWriter struct {
	w   io.Writer
	err error
}

var narPadding [8]byte

func (n *narWriter) str(s string) { n.bytes([]byte(s)) }

func (n *narWriter) bytes(b []byte) {
	if n.err != nil {
		return
	}
	var size [8]byte
	binary.LittleEndian.PutUint64(size[:], uint64(len(b)))
	if _, n.err = n.w.Write(size[:]); n.err != nil {
		return
	}
	if _, n.err = n.w.Write(b); n.err != nil {
		return
	}
	if pad := (8 - len(b)%8) % 8; pad > 0 {
		_, n.err = n.w.Write(narPadding[:pad])
	}
}

func (n *narWriter) node(path string) {
	if n.err != nil {
		return
	}
	info, err := os.Lstat(path)
	if err != nil {
		n.err = fmt.Errorf("nar: %w", err)
		return
	}
	n.str("(")
	switch mode := info.Mode(); {
	case mode.IsRegular():
		n.regular(path, mode&0o100 != 0)
	case mode&os.ModeSymlink != 0:
		target, err := os.Readlink(path)
		if err != nil {
			n.err = fmt.Errorf("nar: %w", err)
			return
		}
		n.str("type")
		n.str("symlink")
		n.str("target")
		n.str(target)
	case mode.IsDir():
		n.directory(path)
	default:
		n.err = fmt.Errorf("nar: %s is a %v; a Nix archive holds only files, directories and symlinks", path, mode.Type())
		return
	}
	n.str(")")
}

func (n *narWriter) regular(path string, executable bool) {
	n.str("type")
	n.str("regular")
	if executable {
		n.str("executable")
		n.str("")
	}
	n.str("contents")
	b, err := os.ReadFile(path)
	if err != nil {
		n.err = fmt.Errorf("nar: %w", err)
		return
	}
	n.bytes(b)
}

func (n *narWriter) directory(path string) {
	n.str("type")
	n.str("directory")
	entries, err := os.ReadDir(path)
	if err != nil {
		n.err = fmt.Errorf("nar: %w", err)
		return
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	sort.Strings(names) // byte order, as Nix sorts
	for _, name := range names {
		n.str("entry")
		n.str("(")
		n.str("name")
		n.str(name)
		n.str("node")
		n.node(filepath.Join(path, name))
		n.str(")")
	}
}
