package tools_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/josecorral/fluzo/lib/tools"
)

// A caller views a file, then edits it with the version the view returned.
// StartServer(ctx, root, "") does the same through a fluzo-tool child.
func ExampleNewLocal() {
	root, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, "greeting.txt"), []byte("hello world\n"), 0o644)

	ctx := context.Background()
	c, err := tools.NewLocal(ctx, tools.Options{Root: root})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()

	res, _ := c.Call(ctx, "view", json.RawMessage(`{"path":"greeting.txt"}`))
	var view tools.ViewResult
	res.Decode(&view)

	args, _ := json.Marshal(map[string]any{"path": "greeting.txt", "old_string": "world", "new_string": "fluzo", "expect_version": view.Version})
	res, _ = c.Call(ctx, "edit", args)
	fmt.Println(res.OK)

	// The old version is now stale: nothing is written.
	res, _ = c.Call(ctx, "edit", args)
	fmt.Println(res.Err.Code)
	// Output:
	// true
	// stale_version
}
