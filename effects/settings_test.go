package effects

import (
	"testing"

	"github.com/acg-dev/acg/extract"
)

func TestTextFreeType(t *testing.T) {
	scope := &extract.Scope{Bindings: map[string][]*extract.Binding{}}
	scope.Add(&extract.Binding{Name: "Enum", Kind: extract.BindImport, Imp: &extract.Import{Local: "Enum", Module: "enum", Symbol: "Enum"}})
	scope.Add(&extract.Binding{Name: "SearchAPI", Kind: extract.BindClass, Class: &extract.Class{Name: "SearchAPI",
		Bases: []*extract.Expr{{Kind: extract.ExprName, Name: "Enum"}}}})
	scope.Add(&extract.Binding{Name: "Report", Kind: extract.BindClass, Class: &extract.Class{Name: "Report"}})
	for ann, want := range map[string]bool{
		"int": true, "float": true, "bool": true, "Optional[int]": true, "int | None": true, "builtins.int": true,
		`Literal["summarize", "split_and_rerank"] | None`: true, `typing.Literal["a"]`: true, "SearchAPI": true,
		"str": false, "Optional[str]": false, "Optional[Dict[str, Any]]": false, "Report": false, "": false,
		"list[int]": false, "UnknownEnum": false,
	} {
		if got := textFreeType(scope, ann); got != want {
			t.Errorf("textFreeType(%q) = %v, want %v", ann, got, want)
		}
	}
}
