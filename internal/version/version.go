// Package version says which build of acg is running, for `acg version`,
// SARIF's tool.driver.version and the language server's serverInfo.
package version

import "runtime/debug"

// Release is set by release builds, and wins over the build info:
//
//	go build -ldflags "-X github.com/acg-dev/acg/internal/version.Release=v1.2.3" ./cmd/...
var Release string

// String is the version of the running binary: Release when set, else the
// module version `go install …@vX` records, else the VCS revision a build
// from a checkout records (with "-modified" for uncommitted changes), else
// "dev".
func String() string {
	info, _ := debug.ReadBuildInfo()
	return from(Release, info)
}

func from(release string, info *debug.BuildInfo) string {
	if release != "" {
		return release
	}
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev string
	var modified bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return "dev"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "dev-" + rev
	if modified {
		v += "-modified"
	}
	return v
}
