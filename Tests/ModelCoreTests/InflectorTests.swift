import ModelCore
import Testing

@Suite("Inflector")
struct InflectorTests {
    static let regular: [(String, String)] = [
        ("post", "posts"), ("task_list", "task_lists"), ("box", "boxes"), ("church", "churches"), ("wish", "wishes"),
        ("class", "classes"), ("query", "queries"), ("ability", "abilities"), ("day", "days"), ("half", "halves"),
        ("wife", "wives"), ("safe", "saves"), ("archive", "archives"), ("analysis", "analyses"), ("matrix", "matrices"),
        ("vertex", "vertices"), ("index", "indices"), ("status", "statuses"), ("alias", "aliases"), ("bus", "buses"),
        ("octopus", "octopi"), ("virus", "viruses"), ("axis", "axes"), ("testis", "testes"), ("crisis", "crises"),
        ("quiz", "quizzes"), ("mouse", "mice"), ("ox", "oxen"), ("tomato", "tomatoes"), ("photo", "photos"),
        ("medium", "media"), ("hive", "hives"), ("movie", "movies"), ("shoe", "shoes"), ("database", "databases"),
        ("perspective", "perspectives"), ("news", "news"), ("Task", "Tasks"), ("TaskList", "TaskLists"),
        // Latin -us → -i, and the usual -uses exceptions.
        ("alumnus", "alumni"), ("Alumnus", "Alumni"), ("focus", "foci"), ("radius", "radii"), ("stimulus", "stimuli"),
        ("fungus", "fungi"), ("nucleus", "nuclei"), ("syllabus", "syllabi"), ("former_alumnus", "former_alumni"),
        ("campus", "campuses"), ("bonus", "bonuses"), ("census", "censuses"), ("prospectus", "prospectuses"),
        ("sinus", "sinuses"), ("circus", "circuses"), ("walrus", "walruses"), ("house", "houses"), ("cause", "causes"),
    ]
    static let irregular: [(String, String)] = [
        ("person", "people"), ("man", "men"), ("woman", "women"), ("child", "children"), ("move", "moves"),
        ("foot", "feet"), ("goose", "geese"), ("Person", "People"), ("sales_person", "sales_people"),
        ("SalesPerson", "SalesPeople"), ("PERSON", "PEOPLE"),
    ]
    static let uncountable = ["equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "police", "lab_equipment", "Sheep"]

    @Test(arguments: regular + irregular) func pluralizesAndSingularizes(_ pair: (String, String)) {
        let inflector = Inflector()
        #expect(inflector.pluralize(pair.0) == pair.1)
        #expect(inflector.singularize(pair.1) == pair.0)
    }

    @Test(arguments: uncountable) func uncountablesKeepOneForm(_ word: String) {
        let inflector = Inflector()
        #expect(inflector.pluralize(word) == word)
        #expect(inflector.singularize(word) == word)
    }

    @Test func pluralsAndSingularsAreStable() {
        let inflector = Inflector()
        for (singular, plural) in Self.regular + Self.irregular {
            #expect(inflector.pluralize(plural) == plural, "pluralize(\(plural))")
            #expect(inflector.singularize(singular) == singular, "singularize(\(singular))")
        }
        #expect(inflector.pluralize("") == "")
        #expect(inflector.pluralize("task_") == "task_")
    }

    @Test func caseConversions() {
        let inflector = Inflector()
        #expect(inflector.camelize("task_list") == "TaskList")
        #expect(inflector.camelize("task_list", lowerFirst: true) == "taskList")
        #expect(inflector.camelize("admin/user_role") == "Admin.UserRole")
        #expect(inflector.underscore("TaskList") == "task_list")
        #expect(inflector.underscore("userID") == "user_id")
        #expect(inflector.underscore("URLString") == "url_string")
        #expect(inflector.underscore("Admin.UserRole") == "admin/user_role")
        #expect(inflector.humanize("employee_salary") == "Employee salary")
        #expect(inflector.humanize("author_id") == "Author")
        #expect(inflector.humanize("dueDate") == "Due date")
        #expect(inflector.titleize("man_from_the_boondocks") == "Man From The Boondocks")
        #expect(inflector.titleize("x-men: the last stand") == "X Men: The Last Stand")
        #expect(inflector.tableize("TaskList") == "task_lists")
        #expect(inflector.tableize("Person") == "people")
        #expect(inflector.classify("task_lists") == "TaskList")
        #expect(inflector.classify("people") == "Person")
        #expect(inflector.foreignKey("TaskList") == "task_list_id")
    }

    @Test func userRulesTakePrecedenceAndResetRestoresTheDefaults() throws {
        let inflector = Inflector()
        inflector.irregular("octopus", "octopodes")
        #expect(inflector.pluralize("octopus") == "octopodes")
        #expect(inflector.singularize("octopodes") == "octopus")
        inflector.uncountable("luggage", "person")
        #expect(inflector.pluralize("luggage") == "luggage")
        #expect(inflector.pluralize("person") == "person")  // uncountable now wins over the irregular
        try inflector.plural("(cact)us$", "$1i")
        try inflector.singular("(cact)i$", "$1us")
        #expect(inflector.pluralize("cactus") == "cacti")
        #expect(inflector.singularize("cacti") == "cactus")
        try inflector.plural("^(pok)emon$", "$1emon")
        #expect(inflector.pluralize("pokemon") == "pokemon")
        let error = #expect(throws: InflectorError.self) { try inflector.plural("(unclosed", "x") }
        #expect(error?.pattern == "(unclosed")
        inflector.reset()
        #expect(inflector.pluralize("octopus") == "octopi")
        #expect(inflector.pluralize("luggage") == "luggages")
        #expect(inflector.pluralize("person") == "people")
        inflector.clear()
        #expect(inflector.pluralize("person") == "person")  // no rules at all
    }

    @Test func defaultTableNamesArePluralSnakeCase() {
        #expect(Task.tableName == "tasks")
        #expect(Task.schema.tableName == "tasks")
        #expect(NoTimestamps.tableName == "legacy_items")  // a declared name wins
    }

    @Test func concurrentUseIsSafe() async {
        let inflector = Inflector()
        await withTaskGroup(of: Void.self) { group in
            for k in 0..<8 {
                group.addTask {
                    for n in 0..<200 {
                        if k == 0, n % 50 == 0 { inflector.irregular("cow\(n)", "kine\(n)") }
                        #expect(inflector.pluralize("person") == "people")
                        #expect(inflector.singularize("statuses") == "status")
                    }
                }
            }
        }
        #expect(inflector.pluralize("cow150") == "kine150")
    }
}
