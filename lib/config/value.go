package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// coerce converts a decoded TOML value to the Go type of s (bool, int64,
// float64, string, []string or map[string]string) and checks its range.
// The returned problem is a sentence for a diagnostic, "" when valid.
func coerce(s Setting, raw any) (any, string) {
	switch s.Kind {
	case KindBool:
		if b, ok := raw.(bool); ok {
			return b, ""
		}
	case KindInt:
		if n, ok := raw.(int64); ok {
			if s.HasRange && (float64(n) < s.Min || float64(n) > s.Max) {
				return nil, fmt.Sprintf("%d is out of range", n)
			}
			return n, ""
		}
	case KindFloat:
		f, ok := raw.(float64)
		if n, isInt := raw.(int64); isInt {
			f, ok = float64(n), true
		}
		if ok {
			if math.IsNaN(f) || (s.HasRange && (f < s.Min || f > s.Max)) {
				return nil, fmt.Sprintf("%s is out of range", formatFloat(f))
			}
			return f, ""
		}
	case KindString:
		if str, ok := raw.(string); ok {
			return str, ""
		}
	case KindEnum:
		if str, ok := raw.(string); ok {
			for _, o := range s.Options {
				if o == str {
					return str, ""
				}
			}
			return nil, fmt.Sprintf("%q is not a supported value", str)
		}
	case KindStrings:
		if list, ok := toStrings(raw); ok {
			return list, ""
		}
	case KindStringMap:
		if m, ok := toStringMap(raw); ok {
			return m, ""
		}
	}
	return nil, fmt.Sprintf("expected %s, found %s", kindNoun(s.Kind), tomlTypeName(raw))
}

func toStrings(raw any) ([]string, bool) {
	switch v := raw.(type) {
	case []string:
		return append([]string{}, v...), true
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			str, ok := e.(string)
			if !ok {
				return nil, false
			}
			out = append(out, str)
		}
		return out, true
	}
	return nil, false
}

func toStringMap(raw any) (map[string]string, bool) {
	switch v := raw.(type) {
	case map[string]string:
		out := make(map[string]string, len(v))
		for k, e := range v {
			out[k] = e
		}
		return out, true
	case map[string]any:
		out := make(map[string]string, len(v))
		for k, e := range v {
			str, ok := e.(string)
			if !ok {
				return nil, false
			}
			out[k] = str
		}
		return out, true
	}
	return nil, false
}

// ParseValue parses text given on a command line (config set KEY VALUE,
// --set KEY=VALUE) as a value of s. Strings may be given bare; lists and
// tables use TOML syntax ("[\"a\", \"b\"]", "{ A = \"1\" }").
func ParseValue(s Setting, text string) (any, string) {
	switch s.Kind {
	case KindString, KindEnum:
		if strings.HasPrefix(text, `"`) || strings.HasPrefix(text, `'`) {
			if v, ok := decodeTOMLValue(text); ok {
				return coerce(s, v)
			}
		}
		return coerce(s, text)
	case KindBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return nil, fmt.Sprintf("%q is not true or false", text)
		}
		return b, ""
	case KindInt:
		n, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 10, 64)
		if err != nil {
			return nil, fmt.Sprintf("%q is not an integer", text)
		}
		return coerce(s, n)
	case KindFloat:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return nil, fmt.Sprintf("%q is not a number", text)
		}
		return coerce(s, f)
	}
	v, ok := decodeTOMLValue(text)
	if !ok {
		return nil, fmt.Sprintf("%q is not %s in TOML syntax", text, kindNoun(s.Kind))
	}
	return coerce(s, v)
}

func decodeTOMLValue(text string) (any, bool) {
	var holder map[string]any
	if _, err := toml.Decode("v = "+text, &holder); err != nil {
		return nil, false
	}
	v, ok := holder["v"]
	return v, ok
}

// FormatValue renders a typed value as TOML value text.
func FormatValue(v any) string {
	switch x := v.(type) {
	case bool:
		return strconv.FormatBool(x)
	case int64:
		return formatInt(x)
	case int:
		return formatInt(int64(x))
	case float64:
		return formatFloat(x)
	case string:
		return strconv.Quote(x)
	case []string:
		q := make([]string, len(x))
		for i, e := range x {
			q[i] = strconv.Quote(e)
		}
		return "[" + strings.Join(q, ", ") + "]"
	case map[string]string:
		if len(x) == 0 {
			return "{}"
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = tomlKey(k) + " = " + strconv.Quote(x[k])
		}
		return "{ " + strings.Join(parts, ", ") + " }"
	}
	return fmt.Sprint(v)
}

func formatInt(n int64) string { return strconv.FormatInt(n, 10) }

func formatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}

// tomlKey quotes a key segment when it is not a bare key.
func tomlKey(k string) string {
	if k == "" {
		return `""`
	}
	for _, r := range k {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return strconv.Quote(k)
		}
	}
	return k
}

func kindNoun(k Kind) string {
	switch k {
	case KindBool:
		return "a boolean"
	case KindInt:
		return "an integer"
	case KindFloat:
		return "a number"
	case KindStrings:
		return "an array of strings"
	case KindStringMap:
		return "a table of strings"
	}
	return "a string"
}

func tomlTypeName(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case int64:
		return "an integer"
	case float64:
		return "a float"
	case string:
		return "a string"
	case []any, []string:
		return "an array"
	case map[string]any:
		return "a table"
	}
	return fmt.Sprintf("a %T", v)
}
