package front

import (
	"os"

	"golang.org/x/sys/unix"
)

// interactiveInit reports whether "fluzo init ARGS" opens the setup flow:
// only without arguments and with a terminal on both standard input and
// output. Scripts, pipes and any flag (--force, --help) keep the
// non-interactive "fluzo-admit config init".
func interactiveInit(args []string) bool {
	return len(args) == 0 && terminal(os.Stdin) && terminal(os.Stdout)
}

func terminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
