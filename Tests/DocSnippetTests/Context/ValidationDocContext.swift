import ArrayAdapter

enum ValidationDoc {
    struct Context {
        let user: ValidationDoc_User
    }

    static func withContext(_ body: (Context) throws -> Void) throws {
        try ModelStore.using(ArrayAdapter()) {
            let user = ValidationDoc_User()
            user.name = "Ada"
            user.password = "secret"
            user.passwordConfirmation = "secret"
            try body(Context(user: user))
        }
    }
}
