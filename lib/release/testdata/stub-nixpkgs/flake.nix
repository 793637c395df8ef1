{
  # A stand-in for nixpkgs, used by scripts/test-packaging to evaluate
  # Fluzo's flake.nix offline (`nix flake check --no-build --override-input
  # nixpkgs path:…`): real nixpkgs is not reachable from CI here. It has only
  # what Fluzo's flake uses, and its buildGoModule refuses the arguments a
  # broken flake would pass, so evaluation proves the flake's shape, not
  # that nixpkgs builds it.
  description = "stub nixpkgs for evaluating Fluzo's flake offline";

  outputs = { self }:
    let
      system = "x86_64-linux";
      stub = name: derivation {
        inherit name system;
        builder = "/bin/sh";
        args = [ "-c" "echo stub > $out" ];
      };
      need = cond: msg: if cond then true else throw "stub buildGoModule: ${msg}";
      buildGoModule = args:
        assert need (args ? pname && args ? version) "pname and version are required";
        assert need (builtins.match "sha256-[A-Za-z0-9+/]{43}=" (args.vendorHash or "") != null) "vendorHash is not an SRI sha256";
        assert need (builtins.length (args.subPackages or [ ]) > 0) "subPackages lists no binary";
        assert need (builtins.elem "cmd/fluzo" args.subPackages) "subPackages lacks cmd/fluzo";
        assert need ((args.env.CGO_ENABLED or "0") == "1") "cgo must be enabled for SQLite";
        assert need (builtins.isString (args.postInstall or null)) "postInstall must install man pages and completions";
        stub "${args.pname}-${args.version}";
    in
    {
      legacyPackages.${system} = {
        inherit buildGoModule;
        mkShell = args: assert need (args ? packages) "mkShell needs packages"; stub "shell";
        installShellFiles = stub "installShellFiles";
        go = stub "go";
        gcc = stub "gcc";
        git = stub "git";
        cargo = stub "cargo";
        tmux = stub "tmux";
        lib.licenses.mit = { shortName = "MIT"; };
      };
    };
}
