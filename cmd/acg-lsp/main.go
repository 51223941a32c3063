// Command acg-lsp is acg's language server. It speaks the Language Server
// Protocol over stdin and stdout and logs to stderr.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/acg-dev/acg/internal/version"
	"github.com/acg-dev/acg/lsp"
)

const usage = `usage: acg-lsp [--stdio]

acg-lsp is started by an editor and talks LSP over stdin and stdout.
`

func main() {
	for _, a := range os.Args[1:] {
		switch a {
		case "--stdio", "-stdio": // what editors pass to choose the transport
		case "--version", "-version", "version":
			fmt.Println("acg-lsp", version.String())
			return
		case "-h", "-help", "--help", "help":
			fmt.Print(usage)
			return
		default:
			fmt.Fprintf(os.Stderr, "acg-lsp: unknown argument %q\n\n%s", a, usage)
			os.Exit(2)
		}
	}
	os.Exit(lsp.Serve(context.Background(), stdio{}, lsp.Options{Log: os.Stderr, Version: version.String()}))
}

// stdio is the connection to the editor.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	err := os.Stdin.Close()
	if e := os.Stdout.Close(); err == nil {
		err = e
	}
	return err
}
