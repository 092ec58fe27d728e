package agentproto

import (
	"errors"
	"fmt"
	"strings"
)

// ErrCommand is the cause of Split's errors: a command line that cannot be
// split into words.
var ErrCommand = errors.New("bad agent command")

// Split cuts a command line into words as a POSIX shell would, without a
// shell: words are separated by blanks; single quotes keep everything
// literally; double quotes keep everything but a backslash before ", \, $
// or `; outside quotes a backslash keeps the next character. Nothing is
// expanded (no variables, globs, pipes or redirections): the words go to
// the program as they are, so a path with spaces must be quoted.
func Split(command string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	quote := rune(0) // the open quote, 0 outside quotes
	escaped := false
	for _, r := range command {
		switch {
		case escaped:
			if quote == '"' && !strings.ContainsRune("\"\\$`", r) {
				word.WriteRune('\\')
			}
			word.WriteRune(r)
			escaped = false
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case r == '\\':
			escaped, inWord = true, true
		case quote == '"':
			if r == '"' {
				quote = 0
			} else {
				word.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	switch {
	case escaped:
		return nil, fmt.Errorf("%w %q: it ends with a backslash", ErrCommand, command)
	case quote != 0:
		return nil, fmt.Errorf("%w %q: the quote %c is not closed", ErrCommand, command, quote)
	}
	if inWord {
		words = append(words, word.String())
	}
	if len(words) == 0 {
		return nil, fmt.Errorf("%w: the command is empty", ErrCommand)
	}
	return words, nil
}
