package confine

import "sort"

// ProtectedNames returns the root-level names file tools protect (.git,
// .fluzo, .fluzodrive), sorted, with what each one is. The command
// sandbox protects the same names: the rule lives here.
func ProtectedNames() []string {
	names := make([]string, 0, len(rootNames))
	for n := range rootNames {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ProtectedWhat says what a protected root-level name is ("" if it is not
// one).
func ProtectedWhat(name string) string { return rootNames[name] }
