package gitx

import (
	"context"
	"strings"
	"time"

	"github.com/josecorral/fluzo/lib/core"
)

// listArgv lists the names of every configuration key git will read in
// dir — system, global, repository, worktree and every file an include or
// a matching includeIf pulls in — so that helpers defined anywhere are
// seen. Listing reads files; it starts no program.
func listArgv(dir string) []string {
	return append(hardenedArgv(dir), "config", "--includes", "--show-origin", "--name-only", "--list", "-z")
}

// configKeys returns the effective configuration's key names, listed
// again unless an earlier listing's files are provably unchanged (see
// configcache.go).
func configKeys(ctx context.Context, dir string, env []string) ([]string, error) {
	if keys, ok := cachedConfigKeys(dir, env); ok {
		return keys, nil
	}
	// One listing at a time per directory and environment: a caller that
	// waited for another's finds it kept (checked against the files now)
	// rather than listing the same files again beside it.
	unlock := lockListing(dir, env)
	defer unlock()
	if keys, ok := cachedConfigKeys(dir, env); ok {
		return keys, nil
	}
	before := time.Now()
	res, err := run(ctx, Command{Argv: listArgv(dir), Env: env})
	if err != nil {
		return nil, err
	}
	if res.ExitCode != 0 {
		return nil, core.Errorf(core.CodeConfigurationRequired, "cannot list the git configuration of %s: %s", dir, res.Stderr).
			WithHint("fix the repository's configuration (git config --list shows the error); git is not run until its helpers can be listed")
	}
	keys, files := parseOrigins(res.Stdout)
	rememberConfigKeys(dir, env, keys, files, before)
	return keys, nil
}

// override returns the neutral value for a configuration key that names a
// program chosen by whoever wrote the configuration, or ok=false.
//
//   - filter.<d>.clean/smudge/process: an empty command means "no filter"
//     to git (status, diff, add and ls-files read the file as it is);
//     .required is cleared so the missing filter is not an error.
//   - diff.<d>.textconv/command: empty, so a textconv or external diff git
//     would still attempt fails instead of running (callers also pass
//     --no-textconv and --no-ext-diff).
//   - credential.<url>.helper: a URL-specific helper outranks the plain
//     credential.helper reset, so each is reset by its own name.
//   - merge.<d>.driver: a merge must never run a repository's driver.
func override(key string) (string, bool) {
	k := strings.ToLower(key)
	section, _, _ := strings.Cut(k, ".")
	name := k[strings.LastIndexByte(k, '.')+1:]
	switch section + "." + name {
	case "filter.clean", "filter.smudge", "filter.process":
		return "", true
	case "filter.required":
		return "false", true
	case "diff.textconv", "diff.command", "merge.driver":
		return "", true
	case "credential.helper":
		return "", true
	}
	return "", false
}

// driverOverrides lists "-c" values neutralising every configured helper
// whose key names a driver or URL (see override). Per-remote transport
// programs (remote.<r>.uploadpack/receivepack) cannot be overridden this
// way — git keeps the first value it reads — so subcommandFlags passes
// them on the command line instead.
func driverOverrides(ctx context.Context, dir string, env []string) ([]string, error) {
	keys, err := configKeys(ctx, dir, env)
	if err != nil {
		return nil, err
	}
	var kv []string
	seen := map[string]bool{}
	for _, key := range keys {
		value, ok := override(key)
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		// git -c splits at the first "=", so a driver name containing one
		// cannot be addressed: refuse rather than run the helper.
		if strings.ContainsAny(key, "=\n") {
			return nil, core.Errorf(CodeUnsafeConfig, "the git configuration of %s names a helper Fluzo cannot disable (%q)", dir, key).
				WithHint("rename the driver in the repository's configuration (no '=' in its name)").With("key", key)
		}
		kv = append(kv, key+"="+value)
	}
	return kv, nil
}

// FilterDrivers names the filter drivers (clean or process programs) the
// effective configuration defines, e.g. "lfs". Staging in such a
// repository would need them.
func FilterDrivers(ctx context.Context, dir string, baseline []string) ([]string, error) {
	keys, err := configKeys(ctx, dir, Env(baseline))
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, key := range keys {
		k := strings.ToLower(key)
		if !strings.HasPrefix(k, "filter.") || !(strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".process")) {
			continue
		}
		name := key[len("filter."):strings.LastIndexByte(key, '.')]
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out, nil
}
