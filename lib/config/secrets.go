package config

import (
	"os"
	"path/filepath"

	"github.com/BurntSushi/toml"
	"github.com/josecorral/fluzo/lib/core"
)

// AuthFilePath returns ${XDG_CONFIG_HOME:-~/.config}/fluzo/auth.toml.
func AuthFilePath() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "fluzo", "auth.toml")
}

// authFile is the user's credential file:
//
//	[credentials.<ref>]
//	endpoint = "https://api.example.com/v1"   # optional: binds the key to one endpoint
//	api_key = "..."
type authFile struct {
	Credentials map[string]struct {
		Endpoint string `toml:"endpoint"`
		APIKey   string `toml:"api_key"`
	} `toml:"credentials"`
}

// APIKey resolves the credential of model id: "" for auth = "none", the
// named environment variable for "env", or the auth.toml entry for
// "credential" (the file must be mode 0600 and the entry's endpoint, when
// set, must equal the model's URL). Errors never contain the secret.
func (c *Config) APIKey(id string, getenv func(string) string) (string, error) {
	p := "models." + id + "."
	switch c.String(p + "auth") {
	case AuthEnv:
		name := c.String(p + "api_key_env")
		v := getenv(name)
		if v == "" {
			return "", core.Errorf(core.CodeConfigurationRequired, "model %q needs the environment variable %s, which is empty", id, name).
				WithHint("export %s before running Fluzo", name)
		}
		return v, nil
	case AuthCredential:
		return c.credentialFromFile(id, c.String(p+"credential_ref"))
	}
	return "", nil
}

func (c *Config) credentialFromFile(id, ref string) (string, error) {
	path := AuthFilePath()
	st, err := os.Stat(path)
	if err != nil {
		return "", core.Wrap(err, core.CodeConfigurationRequired, "cannot read the credential file "+path).
			WithHint("create it with mode 0600 and a [credentials.%s] table holding api_key", ref)
	}
	if st.Mode().Perm()&0o077 != 0 {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s is readable by other users (mode %04o)", path, st.Mode().Perm()).
			WithHint("run: chmod 600 %s", path)
	}
	var af authFile
	if _, err := toml.DecodeFile(path, &af); err != nil {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s is not valid TOML", path).
			WithHint("fix the file; its content is never shown because it holds secrets")
	}
	entry, ok := af.Credentials[ref]
	if !ok || entry.APIKey == "" {
		return "", core.Errorf(core.CodeConfigurationRequired, "%s has no api_key in [credentials.%s]", path, ref).
			WithHint("add the entry named by models.%s.credential_ref", id)
	}
	if entry.Endpoint != "" && entry.Endpoint != c.modelURL(id) {
		return "", core.Errorf(core.CodeConfigurationRequired, "credential %q is scoped to another endpoint than model %q", ref, id).
			WithHint("credentials are endpoint-scoped: fix the endpoint in auth.toml or the model URL in .fluzo")
	}
	return entry.APIKey, nil
}

func (c *Config) modelURL(id string) string {
	if u := c.String("models." + id + ".base_url"); u != "" {
		return u
	}
	return c.String("models." + id + ".endpoint")
}
