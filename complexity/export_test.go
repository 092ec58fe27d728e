package complexity

// Natural exposes the universal code's length to the tests.
var Natural = natural
