{
  # Fluzo as a Nix flake: `nix build` (every binary, man pages, completions),
  # `nix run` (fluzo), `nix develop` (Go, gcc, git, cargo, tmux). See
  # docs/INSTALL.md. vendorHash is checked against go.mod/go.sum by
  # `go test ./lib/release` (TestFlakeVendorHashIsCurrent), which prints the
  # new value when it is stale.
  description = "Fluzo: a local-first runtime for AI coding agents";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      system = "x86_64-linux";
      pkgs = nixpkgs.legacyPackages.${system};
      version = "0.2.0";
      core = "github.com/josecorral/fluzo/lib/core";
      # The same stamp as scripts/build: 12 hex digits of the commit and the
      # commit date, so a flake build reports what it was built from.
      commit =
        if self ? rev then builtins.substring 0 12 self.rev
        else if self ? dirtyRev then builtins.substring 0 12 self.dirtyRev + "-dirty"
        else "unknown";
      stamp = self.lastModifiedDate or "";
      date =
        if stamp == "" then "unknown"
        else "${builtins.substring 0 4 stamp}-${builtins.substring 4 2 stamp}-${builtins.substring 6 2 stamp}T"
          + "${builtins.substring 8 2 stamp}:${builtins.substring 10 2 stamp}:${builtins.substring 12 2 stamp}Z";
      binaries = builtins.attrNames (builtins.readDir ./cmd);
      # go.mod asks for Go 1.26; a nixpkgs whose default Go is older still
      # has the versioned builder.
      buildGo = pkgs.buildGo126Module or pkgs.buildGoModule;
    in
    {
      packages.${system}.default = buildGo {
        pname = "fluzo";
        inherit version;
        src = self;
        vendorHash = "sha256-6Eq02n8af0olXR1Xq45+MnJAdmO9pAoVyZXMb3mospI=";
        subPackages = map (name: "cmd/${name}") binaries;
        # SQLite is linked through cgo.
        env.CGO_ENABLED = "1";
        ldflags = [ "-s" "-w" "-X ${core}.Version=${version}" "-X ${core}.Commit=${commit}" "-X ${core}.Date=${date}" ];
        nativeBuildInputs = [ pkgs.installShellFiles ];
        postInstall = ''
          installManPage man/man1/*.1
          for name in ${builtins.concatStringsSep " " binaries}; do
            installShellCompletion --cmd "$name" \
              --bash "share/completions/$name.bash" \
              --zsh "share/completions/_$name" \
              --fish "share/completions/$name.fish"
          done
          install -Dm644 LICENSE "$out/share/licenses/fluzo/LICENSE"
        '';
        meta = {
          description = "A local-first runtime for AI coding agents, used from the terminal";
          license = pkgs.lib.licenses.mit;
          mainProgram = "fluzo";
          platforms = [ system ];
        };
      };

      apps.${system}.default = {
        type = "app";
        program = "${self.packages.${system}.default}/bin/fluzo";
      };

      devShells.${system}.default = pkgs.mkShell {
        packages = with pkgs; [ go gcc git cargo tmux ];
      };
    };
}
